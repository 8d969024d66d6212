/**
 * Whether the browser can draw the file as a picture. A file's name and type say nothing of its
 * content: a PDF renamed cover.png passes both, and would show as "ready" beside a broken thumbnail
 * until the server refused it (docs/decisions/0068).
 */
export async function decodesAsImage(file: Blob): Promise<boolean> {
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}
