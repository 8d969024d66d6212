import { describe, expect, it, vi } from "vitest";
import { fileNameFromDisposition, saveBlob } from "@/lib/download";
import { stubFileSaving } from "@client-test/catalog-fixtures";

describe("fileNameFromDisposition", () => {
  it("prefers the UTF-8 filename* of RFC 6266", () => {
    const header = `attachment; filename="Cien a?os.pdf"; filename*=UTF-8''Cien%20a%C3%B1os%20de%20soledad.pdf`;
    expect(fileNameFromDisposition(header)).toBe("Cien años de soledad.pdf");
  });

  it("falls back to the plain filename, quoted or not", () => {
    expect(fileNameFromDisposition('attachment; filename="The \\"Raven\\".docx"')).toBe('The "Raven".docx');
    expect(fileNameFromDisposition("attachment; filename=notes.doc")).toBe("notes.doc");
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A; filename="fallback.pdf"`)).toBe("fallback.pdf");
  });

  it("answers null when no file is named", () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition("attachment")).toBeNull();
    expect(fileNameFromDisposition('attachment; filename=""')).toBeNull();
  });
});

describe("saveBlob", () => {
  it("clicks a temporary download link to an object URL and frees the URL afterwards", () => {
    vi.useFakeTimers();
    const { clickedLinks: clicked, revokeObjectURL } = stubFileSaving();

    saveBlob(new Blob(["%PDF-1.7"]), "Cien años.pdf");

    expect(clicked).toHaveLength(1);
    expect(clicked[0]).toMatchObject({ href: "blob:plume/1", download: "Cien años.pdf" });
    expect(clicked[0]?.isConnected).toBe(false);
    expect(revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revokeObjectURL).toHaveBeenCalledWith("blob:plume/1");
  });
});
