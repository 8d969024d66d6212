import type { FileHandle } from "node:fs/promises";

/**
 * A compound file (MS-CFB), the container of a Word 97 document, read as hostile input
 * (docs/decisions/0050): every structure a reader follows is checked before any reader follows it.
 * Sectors are read by position (the tables and the bounded directory; never a stream whole). Each
 * sector belongs to at most one chain (one set of claims serves as every chain's visited set, so a
 * loop and a sector shared by two chains are the same fault), and every chain's length must match
 * the size it carries. What a reader could loop on, read past the file's end or be misled by is a
 * `DamagedCompoundFile`.
 */

export class DamagedCompoundFile extends Error {}

const damaged = (why: string): never => {
  throw new DamagedCompoundFile(why);
};

const SIGNATURE = Buffer.from("d0cf11e0a1b11ae1", "hex");
/** Sector numbers from here up are markers (DIFSECT, FATSECT, ENDOFCHAIN, FREESECT), not sectors. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const NO_STREAM = 0xffffffff;
const HEADER_DIFAT_ENTRIES = 109;
const MINI_SECTOR_BYTES = 64;
const MINI_STREAM_CUTOFF = 4096;
const ENTRY_BYTES = 128;
/** A Word document has a few dozen entries, embedded objects some more: 4 MB of directory is far past any. */
const MAX_DIRECTORY_ENTRIES = 32_768;
/** Storages inside storages (embedded objects): a handful deep in real documents. */
const MAX_STORAGE_DEPTH = 32;
/**
 * How deep one storage's tree of children may go. A red-black tree of the most entries is 30 deep;
 * a writer that never balances chains its children, and word-extractor walks that chain by
 * recursion, so a very long one would exhaust its stack.
 */
const MAX_SIBLING_DEPTH = 512;
/** Contiguous sectors are read together, up to this much at a time. */
const READ_RUN_BYTES = 1024 * 1024;

/** Entry types a tree may hold; an unused entry (0) or anything else met in the tree is damage. */
const enum EntryType {
  Storage = 1,
  Stream = 2,
  Root = 5,
}

export interface CompoundEntry {
  name: string;
  type: "storage" | "stream";
  size: number;
  /** The stream's sectors, in order: mini sectors of the mini stream when `mini`, else the file's. */
  sectors: number[];
  mini: boolean;
}

export interface CompoundFile {
  /** The root storage's children, by upper-cased name (names compare without case, MS-CFB 2.6.4). */
  root: Map<string, CompoundEntry>;
  /** Every storage reached from the root, at any depth, by name: where macro projects live. */
  storageNames: string[];
  /** The first `length` bytes of a stream (at most its size). */
  readStream(entry: CompoundEntry, length: number): Promise<Buffer>;
}

interface RawEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

class Sectors {
  readonly bytes: number;
  readonly headerBytes: number;
  /** Whole sectors in the file after its header: a chain may use no other. */
  readonly count: number;
  private readonly claimed: Uint8Array;

  constructor(
    private readonly handle: FileHandle,
    shift: number,
    fileSize: number,
  ) {
    this.bytes = 1 << shift;
    // A version 4 file's header takes its whole first 4096-byte sector.
    this.headerBytes = this.bytes;
    if (fileSize < this.headerBytes) damaged("shorter than its header");
    this.count = Math.floor((fileSize - this.headerBytes) / this.bytes);
    this.claimed = new Uint8Array(this.count);
  }

  /** Takes a sector for one chain: out of the file, a marker or taken already (a loop, or shared) is damage. */
  claim(sector: number): void {
    if (sector >= this.count) damaged(`sector ${sector} is past the end of the file`);
    if (this.claimed[sector]) damaged(`sector ${sector} is used twice`);
    this.claimed[sector] = 1;
  }

  /** Follows a chain through the FAT, claiming it, to exactly `length` sectors (or at most `length` when `upTo`). */
  follow(fat: Uint32Array, start: number, length: number, what: string, upTo = false): number[] {
    const chain: number[] = [];
    for (let sector = start; sector !== END_OF_CHAIN; sector = fat[sector]!) {
      if (sector >= MAX_REGULAR_SECTOR) damaged(`${what}: chain ends on a marker`);
      if (chain.length === length) damaged(`${what}: chain longer than its size`);
      this.claim(sector);
      if (sector >= fat.length) damaged(`${what}: chain leaves the allocation table`);
      chain.push(sector);
    }
    if (!upTo && chain.length !== length) damaged(`${what}: chain shorter than its size`);
    return chain;
  }

  /** The sectors' bytes, in order, reading contiguous runs at once. */
  async read(sectors: number[]): Promise<Buffer> {
    const buffer = Buffer.alloc(sectors.length * this.bytes);
    for (let index = 0; index < sectors.length; ) {
      let run = 1;
      while (index + run < sectors.length && sectors[index + run] === sectors[index]! + run && (run + 1) * this.bytes <= READ_RUN_BYTES) run += 1;
      const length = run * this.bytes;
      const { bytesRead } = await this.handle.read(buffer, index * this.bytes, length, this.headerBytes + sectors[index]! * this.bytes);
      if (bytesRead !== length) damaged("truncated");
      index += run;
    }
    return buffer;
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) damaged("truncated");
  return buffer;
}

/** An allocation table held in these sectors, read only as far as its first `entries` entries. */
async function readTable(sectors: Sectors, tableSectors: number[], entries: number): Promise<Uint32Array> {
  const bytes = await sectors.read(tableSectors.slice(0, Math.ceil(entries / (sectors.bytes / 4))));
  const table = new Uint32Array(Math.min(bytes.length / 4, entries));
  for (let index = 0; index < table.length; index += 1) table[index] = bytes.readUInt32LE(index * 4);
  return table;
}

function readEntries(directory: Buffer, largeSizes: boolean): RawEntry[] {
  const entries: RawEntry[] = [];
  for (let offset = 0; offset < directory.length; offset += ENTRY_BYTES) {
    const nameBytes = directory.readUInt16LE(offset + 64);
    const type = directory[offset + 66]!;
    // Version 3 files may leave junk in a size's high half (MS-CFB 2.6.3); a version 4 size beyond 4 GB is beyond any upload.
    const sizeHigh = largeSizes ? directory.readUInt32LE(offset + 124) : 0;
    entries.push({
      name: nameBytes >= 2 && nameBytes <= 64 && nameBytes % 2 === 0 ? directory.toString("utf16le", offset, offset + nameBytes - 2) : "",
      type: sizeHigh === 0 ? type : -1,
      left: directory.readUInt32LE(offset + 68),
      right: directory.readUInt32LE(offset + 72),
      child: directory.readUInt32LE(offset + 76),
      start: directory.readUInt32LE(offset + 116),
      size: directory.readUInt32LE(offset + 120),
    });
  }
  return entries;
}

/**
 * Reads and checks a compound file's header, allocation tables, directory tree and every stream's
 * chain. Throws `DamagedCompoundFile` for anything a reader could not follow safely.
 */
export async function readCompoundFile(handle: FileHandle, fileSize: number): Promise<CompoundFile> {
  const header = await readAt(handle, 0, Math.min(512, fileSize));
  if (header.length < 512 || !header.subarray(0, 8).equals(SIGNATURE)) damaged("no compound-file header");
  const major = header.readUInt16LE(26);
  const shift = header.readUInt16LE(30);
  if (header.readUInt16LE(28) !== 0xfffe) damaged("byte order");
  if (!((major === 3 && shift === 9) || (major === 4 && shift === 12))) damaged("version or sector size");
  if (header.readUInt16LE(32) !== 6 || header.readUInt32LE(56) !== MINI_STREAM_CUTOFF) damaged("mini sector size");
  const sectors = new Sectors(handle, shift, fileSize);
  const perSector = sectors.bytes / 4;

  // The FAT's sectors: the header's first 109, then the DIFAT chain's (each sector's last slot links the next).
  const fatCount = header.readUInt32LE(44);
  const difatCount = header.readUInt32LE(72);
  // As many DIFAT sectors as the FAT's sectors need, no more (MS-CFB 2.2): each is one read.
  const difatNeeded = Math.ceil(Math.max(0, fatCount - HEADER_DIFAT_ENTRIES) / (perSector - 1));
  if (fatCount === 0 || fatCount > sectors.count || difatCount !== difatNeeded) damaged("allocation table sizes");
  const fatSectors: number[] = [];
  for (let index = 0; index < Math.min(fatCount, HEADER_DIFAT_ENTRIES); index += 1) fatSectors.push(header.readUInt32LE(76 + index * 4));
  let difatSector = header.readUInt32LE(68);
  for (let read = 0; read < difatCount; read += 1) {
    if (difatSector >= MAX_REGULAR_SECTOR) damaged("DIFAT chain shorter than its count");
    sectors.claim(difatSector);
    const difat = await sectors.read([difatSector]);
    for (let index = 0; index < perSector - 1 && fatSectors.length < fatCount; index += 1) fatSectors.push(difat.readUInt32LE(index * 4));
    difatSector = difat.readUInt32LE(sectors.bytes - 4);
  }
  if (difatSector !== END_OF_CHAIN && difatSector !== FREE_SECTOR) damaged("DIFAT chain longer than its count");
  for (const sector of fatSectors) sectors.claim(sector);
  // Only the FAT's entries for sectors in the file are read: a FAT that declares more costs nothing.
  const fat = await readTable(sectors, fatSectors, sectors.count);

  // The directory, bounded; the mini stream; then the part of its allocation table that covers it.
  const maxDirectorySectors = (MAX_DIRECTORY_ENTRIES * ENTRY_BYTES) / sectors.bytes;
  const directoryChain = sectors.follow(fat, header.readUInt32LE(48), maxDirectorySectors, "directory", true);
  if (directoryChain.length === 0) damaged("no directory");
  if (major === 4 && header.readUInt32LE(40) !== directoryChain.length) damaged("directory size");
  const entries = readEntries(await sectors.read(directoryChain), major === 4);
  const rootEntry = entries[0]!;
  if (rootEntry.type !== EntryType.Root || entries.some((entry, index) => index > 0 && entry.type === EntryType.Root)) damaged("root entry");
  const miniStream = sectors.follow(fat, rootEntry.start, Math.ceil(rootEntry.size / sectors.bytes), "mini stream");
  const miniFatCount = header.readUInt32LE(64);
  const miniFatChain = miniFatCount === 0 ? [] : sectors.follow(fat, header.readUInt32LE(60), miniFatCount, "mini FAT");
  const miniFat = await readTable(sectors, miniFatChain, Math.ceil(rootEntry.size / MINI_SECTOR_BYTES));
  // A mini sector exists when both the mini stream holds it and the mini FAT covers it.
  const miniSectorCount = miniFat.length;
  const miniClaimed = new Uint8Array(miniSectorCount);

  const followMini = (start: number, length: number, what: string): number[] => {
    const chain: number[] = [];
    for (let sector = start; sector !== END_OF_CHAIN; sector = miniFat[sector]!) {
      if (sector >= miniSectorCount) damaged(`${what}: mini chain leaves the mini stream`);
      if (miniClaimed[sector]) damaged(`${what}: mini sector ${sector} is used twice`);
      if (chain.length === length) damaged(`${what}: chain longer than its size`);
      miniClaimed[sector] = 1;
      chain.push(sector);
    }
    if (chain.length !== length) damaged(`${what}: chain shorter than its size`);
    return chain;
  };

  const streamOf = (entry: RawEntry): CompoundEntry => {
    const mini = entry.size < MINI_STREAM_CUTOFF;
    const length = Math.ceil(entry.size / (mini ? MINI_SECTOR_BYTES : sectors.bytes));
    // An empty stream has no chain: any start but ENDOFCHAIN would send a reader into sectors nobody checked.
    const chain = mini ? followMini(entry.start, length, entry.name) : sectors.follow(fat, entry.start, length, entry.name);
    return { name: entry.name, type: "stream", size: entry.size, sectors: chain, mini };
  };

  // The tree: each storage's children are a binary tree through left and right siblings. Walked
  // without recursion; an entry reached twice is a loop, however deep or wide the tree.
  const visited = new Uint8Array(entries.length);
  visited[0] = 1;
  const root = new Map<string, CompoundEntry>();
  const storageNames: string[] = [];
  const storages = [{ child: rootEntry.child, depth: 0 }];
  for (let storage = storages.pop(); storage; storage = storages.pop()) {
    const names = new Set<string>();
    const pending = [{ id: storage.child, depth: 1 }];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { id, depth } = next;
      if (id === NO_STREAM) continue;
      if (id >= entries.length || visited[id]) damaged("directory tree loops or leaves the directory");
      if (depth > MAX_SIBLING_DEPTH) damaged("a storage's tree of children is too deep");
      visited[id] = 1;
      const entry = entries[id]!;
      const upper = entry.name.toUpperCase();
      if (upper === "" || names.has(upper)) damaged("directory entry name missing or repeated");
      names.add(upper);
      pending.push({ id: entry.left, depth: depth + 1 }, { id: entry.right, depth: depth + 1 });
      let found: CompoundEntry;
      if (entry.type === EntryType.Storage) {
        if (storage.depth + 1 > MAX_STORAGE_DEPTH) damaged("storages nested too deep");
        storageNames.push(entry.name);
        storages.push({ child: entry.child, depth: storage.depth + 1 });
        found = { name: entry.name, type: "storage", size: 0, sectors: [], mini: false };
      } else if (entry.type === EntryType.Stream) {
        if (entry.child !== NO_STREAM) damaged("stream with children");
        found = streamOf(entry);
      } else {
        return damaged("directory entry of no known type");
      }
      if (storage.depth === 0) root.set(upper, found);
    }
  }

  return {
    root,
    storageNames,
    async readStream(entry, length) {
      const wanted = Math.min(length, entry.size);
      if (!entry.mini) return (await sectors.read(entry.sectors.slice(0, Math.ceil(wanted / sectors.bytes)))).subarray(0, wanted);
      const perRegular = sectors.bytes / MINI_SECTOR_BYTES;
      const parts: Buffer[] = [];
      for (const miniSector of entry.sectors.slice(0, Math.ceil(wanted / MINI_SECTOR_BYTES))) {
        const regular = await sectors.read([miniStream[Math.floor(miniSector / perRegular)]!]);
        const offset = (miniSector % perRegular) * MINI_SECTOR_BYTES;
        parts.push(regular.subarray(offset, offset + MINI_SECTOR_BYTES));
      }
      return Buffer.concat(parts).subarray(0, wanted);
    },
  };
}
