/**
 * Compound files (MS-CFB, version 3 with 512-byte sectors, or 4 with 4096) written by hand, so that each broken one
 * differs from a sound Word 97 document by the one fault it carries. `compoundFile` lays out the
 * streams and says where everything went; tests then patch the bytes (a FAT entry, a directory
 * field) through the layout.
 */

export interface CompoundStream {
  name: string;
  data: Buffer;
}
export interface CompoundStorage {
  name: string;
  children: CompoundNode[];
}
export type CompoundNode = CompoundStream | CompoundStorage;

const MINI_SECTOR_BYTES = 64;
const MINI_STREAM_CUTOFF = 4096;
export const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const FAT_SECTOR = 0xfffffffd;
const DIFAT_SECTOR = 0xfffffffc;
const NO_STREAM = 0xffffffff;

export interface CompoundLayout {
  bytes: Buffer;
  /** Where a sector starts in `bytes`. */
  sectorAt(sector: number): number;
  /** Where a sector's FAT entry is in `bytes`. */
  fatEntryAt(sector: number): number;
  /** Where a directory entry (0 is the root) is in `bytes`; its left, right, child, start and size sit at 68, 72, 76, 116, 120. */
  entryAt(index: number): number;
  /** Each stream by path ("Macros/PROJECT"): its directory entry and its sectors (mini sectors when `mini`). */
  streams: Map<string, { entry: number; sectors: number[]; mini: boolean }>;
  difatSectors: number[];
}

interface FlatEntry {
  name: string;
  type: 1 | 2 | 5;
  data?: Buffer;
  path: string;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

/** MS-CFB 2.6.4: siblings ordered by name length, then by upper-cased name. */
const compareNames = (a: string, b: string) => a.length - b.length || (a.toUpperCase() < b.toUpperCase() ? -1 : a.toUpperCase() > b.toUpperCase() ? 1 : 0);

function flatten(children: CompoundNode[], balanced: boolean): FlatEntry[] {
  const entries: FlatEntry[] = [{ name: "Root Entry", type: 5, path: "", left: NO_STREAM, right: NO_STREAM, child: NO_STREAM, start: END_OF_CHAIN, size: 0 }];
  const addChildren = (parent: FlatEntry, nodes: CompoundNode[]) => {
    const ids = [...nodes].sort((a, b) => compareNames(a.name, b.name)).map((node) => {
      const entry: FlatEntry = {
        name: node.name,
        type: "data" in node ? 2 : 1,
        ...("data" in node ? { data: node.data } : {}),
        path: parent.path ? `${parent.path}/${node.name}` : node.name,
        left: NO_STREAM,
        right: NO_STREAM,
        child: NO_STREAM,
        start: "data" in node ? END_OF_CHAIN : 0,
        size: "data" in node ? node.data.length : 0,
      };
      entries.push(entry);
      return { id: entries.length - 1, node, entry };
    });
    // A balanced binary tree of the sorted siblings, all black: a valid red-black tree. Unbalanced,
    // each sibling is the right child of the one before (as a writer that never rebalances makes).
    const build = (from: number, to: number): number => {
      if (from >= to) return NO_STREAM;
      const middle = balanced ? (from + to) >> 1 : from;
      ids[middle]!.entry.left = build(from, middle);
      ids[middle]!.entry.right = build(middle + 1, to);
      return ids[middle]!.id;
    };
    parent.child = build(0, ids.length);
    for (const { node, entry } of ids) if ("children" in node) addChildren(entry, node.children);
  };
  addChildren(entries[0]!, children);
  return entries;
}

/**
 * A compound file holding these streams and storages; `fatSectors` pads the FAT (past 109 it needs
 * a DIFAT sector); `balanced: false` chains each storage's children instead of balancing them.
 */
export function compoundFile(children: CompoundNode[], { fatSectors: minFatSectors = 1, version = 3 as 3 | 4, balanced = true } = {}): CompoundLayout {
  const SECTOR_BYTES = version === 3 ? 512 : 4096;
  const ENTRIES_PER_SECTOR = SECTOR_BYTES / 128;
  const IDS_PER_SECTOR = SECTOR_BYTES / 4;
  const entries = flatten(children, balanced);
  const streams = new Map<string, { entry: number; sectors: number[]; mini: boolean }>();

  // The mini stream: small streams, in 64-byte mini sectors.
  let miniSectors = 0;
  const miniFat: number[] = [];
  const miniChunks: Buffer[] = [];
  entries.forEach((entry, index) => {
    if (entry.type !== 2 || entry.data!.length >= MINI_STREAM_CUTOFF || entry.data!.length === 0) return;
    const count = Math.ceil(entry.data!.length / MINI_SECTOR_BYTES);
    const sectors = Array.from({ length: count }, (_, offset) => miniSectors + offset);
    sectors.forEach((sector, offset) => (miniFat[sector] = offset === count - 1 ? END_OF_CHAIN : sector + 1));
    entry.start = miniSectors;
    miniSectors += count;
    const padded = Buffer.alloc(count * MINI_SECTOR_BYTES);
    entry.data!.copy(padded);
    miniChunks.push(padded);
    streams.set(entry.path, { entry: index, sectors, mini: true });
  });
  const miniStream = Buffer.concat(miniChunks);

  // Regular sectors, after the FAT and DIFAT: directory, mini FAT, mini stream, then each large stream.
  const chains: Array<{ data: Buffer; set: (start: number, sectors: number[]) => void }> = [];
  const directory = Buffer.alloc(Math.ceil(entries.length / ENTRIES_PER_SECTOR) * SECTOR_BYTES);
  let directoryStart = 0;
  let miniFatStart = END_OF_CHAIN;
  chains.push({ data: directory, set: (start) => (directoryStart = start) });
  const miniFatBytes = Buffer.alloc(Math.ceil(miniFat.length / IDS_PER_SECTOR) * SECTOR_BYTES, 0xff);
  miniFat.forEach((next, index) => miniFatBytes.writeUInt32LE(next, index * 4));
  if (miniFat.length > 0) chains.push({ data: miniFatBytes, set: (start) => (miniFatStart = start) });
  if (miniStream.length > 0) chains.push({ data: miniStream, set: (start) => ((entries[0]!.start = start), (entries[0]!.size = miniStream.length)) });
  entries.forEach((entry, index) => {
    if (entry.type === 2 && entry.data!.length >= MINI_STREAM_CUTOFF) {
      chains.push({ data: entry.data!, set: (start, sectors) => ((entry.start = start), streams.set(entry.path, { entry: index, sectors, mini: false })) });
    }
  });
  const dataSectors = chains.reduce((sum, { data }) => sum + Math.ceil(data.length / SECTOR_BYTES), 0);
  // The FAT covers every sector, its own and the DIFAT's included: grow it until it does.
  const difatFor = (fat: number) => Math.max(0, Math.ceil((fat - 109) / (IDS_PER_SECTOR - 1)));
  let fatCount = minFatSectors;
  while (Math.ceil((dataSectors + fatCount + difatFor(fatCount)) / IDS_PER_SECTOR) > fatCount) fatCount += 1;
  const difatCount = difatFor(fatCount);
  const fatSectors = Array.from({ length: fatCount }, (_, index) => index);
  const difatSectors = Array.from({ length: difatCount }, (_, index) => fatCount + index);
  const fat = new Array<number>(fatCount * IDS_PER_SECTOR).fill(FREE_SECTOR);
  for (const sector of fatSectors) fat[sector] = FAT_SECTOR;
  for (const sector of difatSectors) fat[sector] = DIFAT_SECTOR;
  let next = fatCount + difatCount;
  const placed: Array<{ at: number; data: Buffer }> = [];
  for (const chain of chains) {
    const count = Math.ceil(chain.data.length / SECTOR_BYTES);
    const sectors = Array.from({ length: count }, (_, offset) => next + offset);
    sectors.forEach((sector, offset) => (fat[sector] = offset === count - 1 ? END_OF_CHAIN : sector + 1));
    chain.set(next, sectors);
    placed.push({ at: next, data: chain.data });
    next += count;
  }

  entries.forEach((entry, index) => {
    const at = index * 128;
    const name = Buffer.from(`${entry.name}\0`, "utf16le");
    name.copy(directory, at);
    directory.writeUInt16LE(name.length, at + 64);
    directory[at + 66] = entry.type;
    directory[at + 67] = 1;
    directory.writeUInt32LE(entry.left, at + 68);
    directory.writeUInt32LE(entry.right, at + 72);
    directory.writeUInt32LE(entry.child, at + 76);
    directory.writeUInt32LE(entry.start, at + 116);
    directory.writeUInt32LE(entry.size, at + 120);
  });
  for (let index = entries.length; index < directory.length / 128; index += 1) {
    directory.writeUInt32LE(NO_STREAM, index * 128 + 68);
    directory.writeUInt32LE(NO_STREAM, index * 128 + 72);
    directory.writeUInt32LE(NO_STREAM, index * 128 + 76);
  }

  const bytes = Buffer.alloc(SECTOR_BYTES * (1 + next));
  Buffer.from("d0cf11e0a1b11ae1", "hex").copy(bytes, 0);
  bytes.writeUInt16LE(0x3e, 24);
  bytes.writeUInt16LE(version, 26);
  bytes.writeUInt16LE(0xfffe, 28);
  bytes.writeUInt16LE(version === 3 ? 9 : 12, 30);
  if (version === 4) bytes.writeUInt32LE(directory.length / SECTOR_BYTES, 40);
  bytes.writeUInt16LE(6, 32);
  bytes.writeUInt32LE(fatCount, 44);
  bytes.writeUInt32LE(directoryStart, 48);
  bytes.writeUInt32LE(MINI_STREAM_CUTOFF, 56);
  bytes.writeUInt32LE(miniFatStart, 60);
  bytes.writeUInt32LE(miniFatBytes.length / SECTOR_BYTES, 64);
  bytes.writeUInt32LE(difatCount > 0 ? difatSectors[0]! : END_OF_CHAIN, 68);
  bytes.writeUInt32LE(difatCount, 72);
  for (let index = 0; index < 109; index += 1) bytes.writeUInt32LE(fatSectors[index] ?? FREE_SECTOR, 76 + index * 4);
  const sectorAt = (sector: number) => SECTOR_BYTES * (sector + 1);
  difatSectors.forEach((sector, index) => {
    const listed = fatSectors.slice(109 + index * (IDS_PER_SECTOR - 1), 109 + (index + 1) * (IDS_PER_SECTOR - 1));
    for (let slot = 0; slot < IDS_PER_SECTOR - 1; slot += 1) bytes.writeUInt32LE(listed[slot] ?? FREE_SECTOR, sectorAt(sector) + slot * 4);
    bytes.writeUInt32LE(difatSectors[index + 1] ?? END_OF_CHAIN, sectorAt(sector) + SECTOR_BYTES - 4);
  });
  const fatEntryAt = (sector: number) => sectorAt(fatSectors[Math.floor(sector / IDS_PER_SECTOR)]!) + (sector % IDS_PER_SECTOR) * 4;
  fat.forEach((value, sector) => bytes.writeUInt32LE(value, fatEntryAt(sector)));
  for (const { at, data } of placed) data.copy(bytes, sectorAt(at));
  return { bytes, sectorAt, fatEntryAt, entryAt: (index) => sectorAt(directoryStart) + index * 128, streams, difatSectors };
}

/**
 * The smallest Word 97 document word-extractor reads: a FIB naming the `1Table` stream, whose
 * piece table holds one piece of 8-bit text in the `WordDocument` stream. `WordDocument` is large
 * enough for regular sectors; `1Table` sits in the mini stream.
 */
export function wordDocumentParts({ text = "Mañana en París", wordDocumentBytes = 5000, extra = [] as CompoundNode[] } = {}): CompoundNode[] {
  const TEXT_AT = 0x800;
  const wordDocument = Buffer.alloc(Math.max(wordDocumentBytes, TEXT_AT + text.length + 1));
  wordDocument.writeUInt16LE(0xa5ec, 0);
  wordDocument.writeUInt16LE(0x00c1, 2);
  wordDocument.writeUInt16LE(0x0200, 0xa);
  wordDocument.writeUInt16LE(14, 32);
  wordDocument.writeUInt16LE(22, 62);
  wordDocument.writeUInt16LE(0x5d, 152);
  wordDocument.write(`${text}\r`, TEXT_AT, "latin1");
  // Clx: a Pcdt (0x02, its size) holding a PlcPcd: two character positions and one piece descriptor,
  // whose file offset (doubled, with bit 30 set) marks 8-bit text.
  const clx = Buffer.alloc(1 + 4 + 8 + 8);
  clx[0] = 0x02;
  clx.writeUInt32LE(16, 1);
  clx.writeUInt32LE(0, 5);
  clx.writeUInt32LE(text.length + 1, 9);
  clx.writeUInt32LE(((TEXT_AT * 2) | 0x40000000) >>> 0, 15);
  const table = Buffer.concat([Buffer.alloc(64), clx]);
  wordDocument.writeUInt32LE(64, 0x1a2);
  wordDocument.writeUInt32LE(clx.length, 0x1a6);
  // The text's length in characters (ccpText) at FibRgLw97's fourth field.
  wordDocument.writeUInt32LE(text.length + 1, 64 + 12);
  return [{ name: "WordDocument", data: wordDocument }, { name: "1Table", data: table }, ...extra];
}

/** A Word 97 document's macros: the `Macros` storage with its VBA project. */
export const MACROS: CompoundStorage = {
  name: "Macros",
  children: [
    { name: "PROJECT", data: Buffer.from('ID="{00000000-0000-0000-0000-000000000000}"\r\n') },
    { name: "VBA", children: [{ name: "dir", data: Buffer.alloc(100, 1) }] },
  ],
};

export const wordDocument = (options?: Parameters<typeof wordDocumentParts>[0]) => compoundFile(wordDocumentParts(options));

const OLE_SIGNATURE = Buffer.from("d0cf11e0a1b11ae1", "hex");

/** A sound document with some of its bytes changed. */
function patched(layout: CompoundLayout, change: (bytes: Buffer, layout: CompoundLayout) => void): Buffer {
  const bytes = Buffer.from(layout.bytes);
  change(bytes, layout);
  return bytes;
}

/** A storage of `count` small streams. */
export const siblings = (count: number): CompoundStorage => ({ name: "Pool", children: Array.from({ length: count }, (_, index) => ({ name: `s${index}`, data: Buffer.alloc(8) })) });
const nested = (depth: number): CompoundStorage => ({ name: `Level${depth}`, children: depth > 1 ? [nested(depth - 1)] : [] });

const wordDocumentSectors = (layout: CompoundLayout) => layout.streams.get("WordDocument")!.sectors;

/**
 * Word 97 documents a reader cannot follow safely, each with one fault: the compound file's
 * (what `readCompoundFile` names it), or, when the compound file is sound, the FIB's (null). The
 * first two are the outside probe's (docs/reliability.md#word-files-no-reading-view-can-handle).
 */
export function brokenWordDocuments(): Array<[label: string, bytes: Buffer, fault: RegExp | null]> {
  const sound = wordDocument();
  const [first, second] = wordDocumentSectors(sound);
  const withData = compoundFile(wordDocumentParts({ extra: [{ name: "Data", data: Buffer.alloc(4096, 7) }] }));
  // Enough FAT sectors (pure padding) to need two DIFAT sectors.
  const padded = compoundFile(wordDocumentParts(), { fatSectors: 240 });
  return [
    ["a FAT chain that loops (sector → next → back)", patched(sound, (bytes) => bytes.writeUInt32LE(first!, sound.fatEntryAt(second!))), /sector \d+ is used twice/],
    ["the compound-file signature followed by zeros", Buffer.concat([OLE_SIGNATURE, Buffer.alloc(2500)]), /byte order/],
    ["a file cut short", sound.bytes.subarray(0, sound.bytes.length - 1024), /past the end of the file/],
    ["a file cut inside its header", sound.bytes.subarray(0, 300), /no compound-file header/],
    ["a chain that points past the end of the file", patched(sound, (bytes) => bytes.writeUInt32LE(100_000, sound.fatEntryAt(first!))), /past the end of the file/],
    ["a directory tree that loops", patched(sound, (bytes, { entryAt }) => bytes.writeUInt32LE(bytes.readUInt32LE(entryAt(0) + 76), entryAt(bytes.readUInt32LE(entryAt(0) + 76)) + 72)), /directory tree loops/],
    [
      "a DIFAT chain that loops",
      patched(padded, (bytes, { difatSectors, sectorAt }) => bytes.writeUInt32LE(difatSectors[0]!, sectorAt(difatSectors[0]!) + 508)),
      /used twice/,
    ],
    [
      "two streams sharing a sector",
      patched(withData, (bytes, { entryAt, streams }) => bytes.writeUInt32LE(wordDocumentSectors(withData)[0]!, entryAt(streams.get("Data")!.entry) + 116)),
      /used twice/,
    ],
    ["a stream larger than its chain", patched(sound, (bytes, { entryAt, streams }) => bytes.writeUInt32LE(50_000, entryAt(streams.get("WordDocument")!.entry) + 120)), /WordDocument: chain shorter than its size/],
    [
      "a mini stream chain that loops",
      patched(sound, (bytes, { streams }) => {
        const table = streams.get("1Table")!.sectors;
        const miniFatAt = sound.sectorAt(bytes.readUInt32LE(60));
        bytes.writeUInt32LE(table[0]!, miniFatAt + table[1]! * 4);
      }),
      /1Table: mini sector \d+ is used twice/,
    ],
    ["storages nested 40 deep", compoundFile(wordDocumentParts({ extra: [nested(40)] })).bytes, /nested too deep/],
    ["600 streams chained in one storage's tree", compoundFile(wordDocumentParts({ extra: [siblings(600)] }), { balanced: false }).bytes, /tree of children is too deep/],
    [
      "two entries of one name in a storage, in another case",
      patched(sound, (bytes, { entryAt, streams }) => {
        const name = Buffer.from("WORDDOCUMENT\0", "utf16le");
        name.copy(bytes, entryAt(streams.get("1Table")!.entry));
        bytes.writeUInt16LE(name.length, entryAt(streams.get("1Table")!.entry) + 64);
      }),
      /name missing or repeated/,
    ],
    ["a FIB whose piece table lies past its table stream", patched(sound, (bytes) => bytes.writeUInt32LE(100_000, sound.sectorAt(first!) + 0x1a2)), null],
    ["a FIB naming a table stream the file lacks", compoundFile(wordDocumentParts().map((node) => (node.name === "1Table" ? { ...node, name: "0Table" } : node))).bytes, null],
  ];
}
