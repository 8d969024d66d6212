import { useEffect, useState } from "react";

/** A data URL of the chosen image, for an <img> preview; null until it is read, or when there is no image. */
export function useImagePreview(image: File | null): string | null {
  const [preview, setPreview] = useState<{ image: File; url: string } | null>(null);

  useEffect(() => {
    if (!image) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === "string") setPreview({ image, url: reader.result });
    };
    reader.readAsDataURL(image);
    return () => reader.abort();
  }, [image]);

  // A preview read for an earlier image must never show next to the new one.
  return preview?.image === image ? preview.url : null;
}
