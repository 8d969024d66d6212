import { zodResolver } from "@hookform/resolvers/zod";
import { type CreatedEReaderKey, E_READER_KEY_NAME_MAX, type EReaderKey, type EReaderKeyNameInput, eReaderKeyNameSchema } from "@shared/e-reader-keys";
import { KOSYNC_PATH } from "@shared/kosync";
import { OPDS_PATH } from "@shared/opds";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { FormAlert } from "@/ui/form-alert";
import { CopyableValue } from "@/ui/copyable-value";
import { TrashIcon } from "@/ui/icons";
import { Panel } from "@/ui/panel";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { TextField } from "@/ui/text-field";
import { useCreateEReaderKey, useEReaderKeys, useRevokeEReaderKey } from "@/features/e-readers/use-e-reader-keys";
import { useNumberFormat } from "@/lib/use-number-format";
import { ApiError } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { toast } from "@/lib/toast";

/** What OPDS is and the address an e-reader app needs, with the three steps of adding it. */
function CatalogAddress() {
  const { t } = useTranslation();
  const catalogUrl = `${window.location.origin}${OPDS_PATH}`;
  return (
    <Panel title={t("eReaders.title")} description={t("eReaders.intro")}>
      <div className="mt-4">
        <p className="text-sm font-semibold">{t("eReaders.catalogLabel")}</p>
        <CopyableValue value={catalogUrl} copyLabel={t("eReaders.copyCatalog")} copiedMessage={t("eReaders.catalogCopied")} copyErrorMessage={t("eReaders.copyError")} testId="opds-catalog-url" />
      </div>
      <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm text-ink-muted">
        <li>{t("eReaders.steps.addCatalog")}</li>
        <li>{t("eReaders.steps.createKey")}</li>
        <li>{t("eReaders.steps.signIn")}</li>
      </ol>
    </Panel>
  );
}

/** How to point KOReader's progress sync at Plume (docs/product.md#progress-sync): the server's address and the four steps in KOReader. */
function ProgressSync() {
  const { t } = useTranslation();
  const serverUrl = `${window.location.origin}${KOSYNC_PATH}`;
  return (
    <Panel title={t("eReaders.progressSync.title")} description={t("eReaders.progressSync.intro")}>
      <div className="mt-4">
        <p className="text-sm font-semibold">{t("eReaders.progressSync.serverLabel")}</p>
        <CopyableValue
          value={serverUrl}
          copyLabel={t("eReaders.progressSync.copyServer")}
          copiedMessage={t("eReaders.progressSync.serverCopied")}
          copyErrorMessage={t("eReaders.copyError")}
          testId="kosync-server-url"
        />
      </div>
      <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm text-ink-muted">
        <li>{t("eReaders.progressSync.steps.download")}</li>
        <li>{t("eReaders.progressSync.steps.server")}</li>
        <li>{t("eReaders.progressSync.steps.login")}</li>
        <li>{t("eReaders.progressSync.steps.auto")}</li>
      </ol>
      <p className="mt-3 text-sm text-ink-muted">{t("eReaders.progressSync.note")}</p>
    </Panel>
  );
}

/** The new key, shown this once: the server keeps only its hash. */
function NewKey({ created, onDone }: { created: CreatedEReaderKey; onDone: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The key appears where the form was sent from: the focus moves to it so that it is read out.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div data-testid="new-e-reader-key" className="mt-5 rounded-lg border border-accent bg-accent-soft p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold">
        {t("eReaders.newKey.title", { name: created.name })}
      </h3>
      <p className="mt-1 text-sm">{t("eReaders.newKey.once")}</p>
      <CopyableValue value={created.key} copyLabel={t("eReaders.newKey.copy")} copiedMessage={t("eReaders.newKey.copied")} copyErrorMessage={t("eReaders.copyError")} testId="new-e-reader-key-value" large />
      <button type="button" onClick={onDone} className={buttonClassName("secondary", "mt-3")}>
        {t("eReaders.newKey.done")}
      </button>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedEReaderKey) => void }) {
  const { t } = useTranslation();
  const create = useCreateEReaderKey();
  const form = useForm<EReaderKeyNameInput>({ resolver: zodResolver(eReaderKeyNameSchema), defaultValues: { name: "" } });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = form;

  const submit = handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: (created) => {
        reset();
        onCreated(created);
      },
      onError: (error) => {
        const tooMany = error instanceof ApiError && error.body?.code === "too_many_e_reader_keys";
        if (tooMany) setError("root.server", { type: "server", message: t("eReaders.create.tooMany") });
        else if (error instanceof ApiError && error.body?.fields?.name) setError("name", { type: "server", message: error.body.fields.name }, { shouldFocus: true });
        else setError("root.server", { type: "server", message: errorText(error) });
      },
    }),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-3">
      <FormAlert message={errors.root?.server?.message} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label={t("eReaders.create.nameLabel")}
          hint={t("eReaders.create.nameHint")}
          maxLength={E_READER_KEY_NAME_MAX}
          autoComplete="off"
          required
          className="flex-1"
          errorKey={errors.name?.message}
          {...register("name")}
        />
        <button type="submit" disabled={create.isPending} data-testid="create-e-reader-key" className={buttonClassName("primary", "sm:mt-7")}>
          {create.isPending ? t("eReaders.create.pending") : t("eReaders.create.submit")}
        </button>
      </div>
    </form>
  );
}

function KeyRow({ eReaderKey, onRevoke }: { eReaderKey: EReaderKey; onRevoke: (key: EReaderKey) => void }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const revoked = eReaderKey.revokedAt !== null;
  return (
    <li data-testid="e-reader-key" className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className={`font-semibold break-words ${revoked ? "text-ink-muted line-through" : ""}`}>{eReaderKey.name}</p>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-ink-muted">
          <span>{t("eReaders.list.created", { date: format.date(eReaderKey.createdAt) })}</span>
          <span>{eReaderKey.lastUsedAt ? t("eReaders.list.lastUsed", { date: format.date(eReaderKey.lastUsedAt) }) : t("eReaders.list.neverUsed")}</span>
          {revoked && <span className="font-semibold text-danger">{t("eReaders.list.revoked", { date: format.date(eReaderKey.revokedAt!) })}</span>}
        </p>
      </div>
      {!revoked && (
        <button type="button" onClick={() => onRevoke(eReaderKey)} className={buttonClassName("dangerOutline", "self-start sm:self-auto")}>
          <TrashIcon />
          {t("eReaders.list.revoke")}
          <span className="sr-only">{`: ${eReaderKey.name}`}</span>
        </button>
      )}
    </li>
  );
}

function KeyList({ onRevoked }: { onRevoked: (id: string) => void }) {
  const { t } = useTranslation();
  const keys = useEReaderKeys();
  const revoke = useRevokeEReaderKey();
  const [toRevoke, setToRevoke] = useState<EReaderKey | null>(null);
  const listRef = useRef<HTMLHeadingElement>(null);

  if (keys.isPending) {
    return (
      <p role="status" className="mt-5 text-ink-muted">
        {t("common.loading")}
      </p>
    );
  }
  if (keys.isError) {
    return (
      <p className="mt-5 text-ink-muted">
        {t("eReaders.list.fetchError")}{" "}
        <button type="button" onClick={() => void keys.refetch()} className={textLinkClassName}>
          {t("catalog.retry")}
        </button>
      </p>
    );
  }
  return (
    <div className="mt-6">
      <h3 ref={listRef} tabIndex={-1} className="font-semibold">
        {t("eReaders.list.title")}
      </h3>
      {keys.data.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">{t("eReaders.list.empty")}</p>
      ) : (
        <ul className="mt-3 divide-y divide-line">
          {keys.data.map((eReaderKey) => (
            <KeyRow key={eReaderKey.id} eReaderKey={eReaderKey} onRevoke={setToRevoke} />
          ))}
        </ul>
      )}
      {toRevoke && (
        <ConfirmDialog
          title={t("eReaders.revokeDialog.title", { name: toRevoke.name })}
          description={t("eReaders.revokeDialog.description")}
          confirmLabel={t("eReaders.revokeDialog.confirm")}
          pendingLabel={t("eReaders.revokeDialog.pending")}
          isPending={revoke.isPending}
          confirmTestId="confirm-revoke-e-reader-key"
          fallbackFocus={listRef}
          onCancel={() => setToRevoke(null)}
          onConfirm={() =>
            revoke.mutate(toRevoke.id, {
              onSuccess: () => {
                setToRevoke(null);
                onRevoked(toRevoke.id);
                toast({ title: t("eReaders.revokeDialog.done", { name: toRevoke.name }) });
              },
              onError: (error) => {
                setToRevoke(null);
                toast({ variant: "destructive", title: t("common.error"), description: errorText(error) });
              },
            })
          }
        />
      )}
    </div>
  );
}

/** The settings screen's e-reader apps section (docs/product.md#opds): the catalog's address, KOReader's progress sync and the reader's per-device keys. */
export function EReaderKeysSection() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<CreatedEReaderKey | null>(null);
  return (
    <div className="space-y-6">
      <CatalogAddress />
      <ProgressSync />
      <Panel title={t("eReaders.keys.title")} description={t("eReaders.keys.description")}>
        <CreateKeyForm onCreated={setCreated} />
        {created && <NewKey created={created} onDone={() => setCreated(null)} />}
        {/* A key revoked while still shown is of no use to copy any more. */}
        <KeyList onRevoked={(id) => setCreated((shown) => (shown?.id === id ? null : shown))} />
      </Panel>
    </div>
  );
}
