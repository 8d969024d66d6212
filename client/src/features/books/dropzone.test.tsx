import { createEvent, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Dropzone } from "@/features/books/dropzone";
import type { UploadKind } from "@/features/books/upload-kinds";
import i18n from "@/lib/i18n";

const MB = 1024 * 1024;

/** A file that claims the given size without holding that many bytes. */
function fileOfSize(name: string, type: string, bytes: number): File {
  const file = new File(["%PDF-1.7"], name, { type });
  Object.defineProperty(file, "size", { value: bytes });
  return file;
}

/** The Dropzone as a form uses it: the parent keeps the chosen file. */
function renderZone(kind: UploadKind = "book") {
  const onChange = vi.fn();
  function Parent() {
    const [file, setFile] = useState<File | null>(null);
    return (
      <Dropzone
        kind={kind}
        label={kind === "book" ? "Book file" : "Cover image"}
        file={file}
        onChange={(chosen) => {
          onChange(chosen);
          setFile(chosen);
        }}
        testId="zone"
      />
    );
  }
  // The browser's own type filter is off, so refused types reach the zone as a drop would bring them.
  const user = userEvent.setup({ applyAccept: false });
  render(<Parent />);
  const zone = screen.getByTestId("zone");
  const input = zone.querySelector<HTMLInputElement>("input[type=file]")!;
  return { user, zone, input, onChange };
}

/** Drops several files at once, as dragging them from a file manager does. */
function dropFiles(target: HTMLElement, files: File[]) {
  const dataTransfer = {
    files,
    items: files.map((file) => ({ kind: "file", type: file.type, getAsFile: () => file })),
    types: ["Files"],
  };
  const drop = createEvent.drop(target);
  Object.defineProperty(drop, "dataTransfer", { value: dataTransfer });
  fireEvent(target, drop);
}

describe("Dropzone", () => {
  it("invites a drop or a click, and opens the file picker with Enter or Space on its select button", async () => {
    const { user, input } = renderZone();
    expect(screen.getByRole("group", { name: "Book file" })).toHaveTextContent("Drag and drop your book here, or click to choose it");
    const selectButton = screen.getByRole("button", { name: "Book file Select file" });
    expect(selectButton).toHaveAccessibleDescription("PDF, DOC, DOCX or EPUB, up to 50 MB.");
    expect(input).toHaveAttribute("accept", expect.stringContaining(".docx"));
    expect(input.closest("[role=group]")).toBeNull();

    const openPicker = vi.spyOn(input, "click");
    await user.tab();
    expect(selectButton).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(openPicker).toHaveBeenCalledTimes(1);
    await user.keyboard(" ");
    expect(openPicker).toHaveBeenCalledTimes(2);
  });

  it("opens the file picker once when the zone is clicked anywhere, the select button included", async () => {
    const { user, input } = renderZone();
    const openPicker = vi.spyOn(input, "click");
    await user.click(screen.getByText("Drag and drop your book here, or click to choose it"));
    expect(openPicker).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("button", { name: "Book file Select file" }));
    expect(openPicker).toHaveBeenCalledTimes(2);
  });

  it("confirms a chosen file with its name and size in MB with two decimals, the focus moving to its remove button", async () => {
    const { user, zone, input, onChange } = renderZone();
    const book = fileOfSize("my-novel.pdf", "application/pdf", Math.round(2.37 * MB));
    // As in a browser, the picker opens from the focused select button and the input reports the choice.
    screen.getByRole("button", { name: "Book file Select file" }).focus();
    await user.keyboard("{Enter}");
    fireEvent.change(input, { target: { files: [book] } });

    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(book));
    expect(within(zone).getByText("File ready")).toBeInTheDocument();
    expect(within(zone).getByText("my-novel.pdf")).toBeInTheDocument();
    expect(within(zone).getByText("2.37 MB")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Book file Select file" })).not.toBeInTheDocument();
    await waitFor(() => expect(within(zone).getByRole("button", { name: "Remove my-novel.pdf" })).toHaveFocus());
  });

  it("refuses a book over 50 MB with the limit in the message", async () => {
    const { user, zone, input, onChange } = renderZone();

    await user.upload(input, fileOfSize("huge.pdf", "application/pdf", 50 * MB + 1));

    expect(within(zone).getByText("The file must be at most 50 MB")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Book file Select file" })).toHaveAccessibleDescription(
      "PDF, DOC, DOCX or EPUB, up to 50 MB. The file must be at most 50 MB",
    );
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it("refuses a file of another type, and a new choice clears the message", async () => {
    const { user, zone, input } = renderZone();

    await user.upload(input, new File(["MZ"], "setup.exe", { type: "application/x-msdownload" }));
    expect(within(zone).getByText("The file must be a PDF, DOC, DOCX or EPUB document")).toBeInTheDocument();

    await user.upload(input, new File(["PK"], "book.docx", { type: "" }));
    expect(within(zone).queryByText("The file must be a PDF, DOC, DOCX or EPUB document")).not.toBeInTheDocument();
    expect(within(zone).getByText("book.docx")).toBeInTheDocument();
  });

  it("uses the cover's own limit and messages", async () => {
    const { user, zone, input } = renderZone("cover");

    await user.upload(input, fileOfSize("cover.png", "image/png", 5 * MB + 1));
    expect(within(zone).getByText("The cover must be at most 5 MB")).toBeInTheDocument();

    await user.upload(input, new File(["%PDF"], "cover.pdf", { type: "application/pdf" }));
    expect(within(zone).getByText("The cover must be a JPG, PNG or WebP image")).toBeInTheDocument();
  });

  it("shows only the first refusal when several files are dropped", async () => {
    const { zone, onChange } = renderZone();

    dropFiles(zone.querySelector<HTMLElement>("[role=group]")!, [
      fileOfSize("huge.pdf", "application/pdf", 60 * MB),
      new File(["MZ"], "setup.exe", { type: "application/x-msdownload" }),
    ]);

    expect(await within(zone).findByText("The file must be at most 50 MB")).toBeInTheDocument();
    expect(within(zone).queryByText("The file must be a PDF, DOC, DOCX or EPUB document")).not.toBeInTheDocument();
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it("removes the chosen file: back to empty, the parent told with null, focus back on the select button", async () => {
    const { user, zone, input, onChange } = renderZone();
    await user.upload(input, new File(["%PDF"], "my-novel.pdf", { type: "application/pdf" }));

    await user.click(within(zone).getByRole("button", { name: "Remove my-novel.pdf" }));

    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(within(zone).queryByText("my-novel.pdf")).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Book file Select file" })).toHaveFocus());
  });

  it("previews a chosen cover", async () => {
    const { user, zone, input } = renderZone("cover");
    await user.upload(input, new File(["png"], "cover.png", { type: "image/png" }));

    expect(await within(zone).findByText("Cover ready")).toBeInTheDocument();
    await waitFor(() => expect(zone.querySelector("img")).toHaveAttribute("src", expect.stringMatching(/^data:image\/png;base64,/)));
  });

  it("refuses a cover the browser cannot open as a picture, in the reader's language, and tells the parent nothing was chosen", async () => {
    await i18n.changeLanguage("fr");
    const decode = vi.fn(() => Promise.reject(new DOMException("The source image could not be decoded.", "InvalidStateError")));
    vi.stubGlobal("createImageBitmap", decode);
    const { user, zone, input, onChange } = renderZone("cover");
    const renamedPdf = new File(["%PDF-1.7"], "cover.png", { type: "image/png" });
    await user.upload(input, renamedPdf);

    expect(await within(zone).findByText("Ce fichier ne s'ouvre pas comme une image. Choisissez une image JPG, PNG ou WebP.")).toBeInTheDocument();
    expect(decode).toHaveBeenCalledWith(renamedPdf);
    expect(within(zone).queryByText("Couverture prête")).not.toBeInTheDocument();
    expect(zone.querySelector("img")).toBeNull();
    expect(onChange).toHaveBeenCalledExactlyOnceWith(null);
  });

  it("keeps the newest choice when an earlier cover's check ends after it", async () => {
    let finishFirst: (decodes: boolean) => void = () => {};
    vi.stubGlobal(
      "createImageBitmap",
      vi
        .fn()
        .mockImplementationOnce(() => new Promise((resolve, reject) => (finishFirst = (decodes) => (decodes ? resolve({ close: () => {} }) : reject(new Error("bad"))))))
        .mockImplementation(() => Promise.resolve({ close: () => {} })),
    );
    const { user, zone, input, onChange } = renderZone("cover");
    await user.upload(input, new File(["?"], "broken.png", { type: "image/png" }));
    await user.upload(input, new File(["png"], "good.png", { type: "image/png" }));
    expect(await within(zone).findByText("good.png")).toBeInTheDocument();

    finishFirst(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(within(zone).getByText("good.png")).toBeInTheDocument();
    expect(within(zone).queryByText("This file does not open as a picture. Choose a JPG, PNG or WebP image.")).not.toBeInTheDocument();
    expect(onChange.mock.calls.map(([file]) => (file as File | null)?.name ?? null)).toEqual(["good.png"]);
  });
});
