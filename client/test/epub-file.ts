/**
 * A small EPUB as the browser's File, zipped here with the browser's own CompressionStream (the client
 * tests have no Node), for the upload form's reading of a package's metadata.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => (bytes.reduce((crc, byte) => CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

async function deflated(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  }).pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A zip of the given entries, `mimetype` stored and the others deflated, with its central directory. */
async function zip(entries: Array<[name: string, content: string | Uint8Array<ArrayBuffer>]>): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, given] of entries) {
    const nameBytes = encoder.encode(name);
    const content = typeof given === "string" ? encoder.encode(given) : given;
    const stored = name === "mimetype";
    const data = stored ? content : await deflated(content);
    const local = new DataView(new ArrayBuffer(30 + nameBytes.length));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, stored ? 0 : 8, true);
    local.setUint32(14, crc32(content), true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, content.length, true);
    local.setUint16(26, nameBytes.length, true);
    new Uint8Array(local.buffer).set(nameBytes, 30);
    const central = new DataView(new ArrayBuffer(46 + nameBytes.length));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, stored ? 0 : 8, true);
    central.setUint32(16, crc32(content), true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, content.length, true);
    central.setUint16(28, nameBytes.length, true);
    central.setUint32(42, offset, true);
    new Uint8Array(central.buffer).set(nameBytes, 46);
    locals.push(new Uint8Array(local.buffer), data);
    centrals.push(new Uint8Array(central.buffer));
    offset += local.byteLength + data.length;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (whole.set(part, at), at + part.length), 0);
  return whole;
}

export interface EpubFileMetadata {
  title?: string;
  language?: string;
  description?: string;
  /** Raw markup put before the package element (a DOCTYPE). */
  prolog?: string;
  /** The bytes of a PNG the package names as its cover (EPUB 3's cover-image), beside the package in `images/`. */
  cover?: Uint8Array<ArrayBuffer>;
}

export async function epubFile(
  { title = "El faro de los libros perdidos", language = "es-ES", description = "Una guardiana de faro encuentra una biblioteca.", prolog = "", cover }: EpubFileMetadata = {},
  name = "faro.epub",
): Promise<File> {
  const coverItem = cover ? '<item id="c" href="images/cover%20art.png" media-type="image/png" properties="cover-image"/>' : "";
  const bytes = await zip([
    ["mimetype", "application/epub+zip"],
    ["META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'],
    [
      "OPS/book.opf",
      `<?xml version="1.0" encoding="UTF-8"?>${prolog}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title><dc:creator>Lucía Ferrer</dc:creator><dc:language>${language}</dc:language><dc:description>${description}</dc:description></metadata><manifest>${coverItem}</manifest><spine/></package>`,
    ],
    ...(cover ? [["OPS/images/cover art.png", cover] as [string, Uint8Array<ArrayBuffer>]] : []),
  ]);
  return new File([bytes as Uint8Array<ArrayBuffer>], name, { type: "application/epub+zip" });
}
