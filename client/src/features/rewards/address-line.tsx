import { shortAddress } from "@shared/wallet";
import { CheckIcon } from "@/ui/icons";

interface AddressLineProps {
  /** What the address is, e.g. "Your PME are sent to". */
  text: string;
  address: string;
  testId?: string;
}

/** A wallet address that is in place: a check, what it is for, and the address shortened (docs/product.md#formats). */
export function AddressLine({ text, address, testId }: AddressLineProps) {
  return (
    <p data-testid={testId} className="flex items-start gap-2 text-sm">
      <CheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-700" />
      <span>
        {text}{" "}
        <span title={address} className="font-mono font-semibold">
          {shortAddress(address)}
        </span>
      </span>
    </p>
  );
}
