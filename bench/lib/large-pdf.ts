import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

const CHUNK_BYTES = 1024 * 1024;

/** The objects of a blank one-page PDF, then the filler: a stream no page refers to, which readers skip. */
const objectsBefore = (fillerBytes: number) => [
  "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
  "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
  "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n",
  `4 0 obj\n<< /Length ${fillerBytes} >>\nstream\n`,
];
const FILLER_END = "\nendstream\nendobj\n";

function trailer(offsets: number[], xrefOffset: number): string {
  const entries = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  return `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
}

/** The bytes around the filler for a file of `totalBytes`: the filler's length makes the total exact. */
function frame(totalBytes: number): { head: string; fillerBytes: number; tail: string } {
  const header = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  // The head and tail depend on the filler's length only through a few digits: it settles in a pass or two.
  let fillerBytes = totalBytes;
  for (let pass = 0; pass < 3; pass += 1) {
    const objects = objectsBefore(fillerBytes);
    const offsets: number[] = [];
    let position = Buffer.byteLength(header, "latin1");
    for (const object of objects.slice(0, 3)) {
      offsets.push(position);
      position += Buffer.byteLength(object, "latin1");
    }
    offsets.push(position);
    const head = header + objects.join("");
    const xrefOffset = Buffer.byteLength(head, "latin1") + fillerBytes + FILLER_END.length;
    const tail = FILLER_END + trailer(offsets, xrefOffset);
    const next = totalBytes - Buffer.byteLength(head, "latin1") - Buffer.byteLength(tail, "latin1");
    if (next < 0) break;
    if (next === fillerBytes) return { head, fillerBytes, tail };
    fillerBytes = next;
  }
  throw new Error(`No PDF frame fits ${totalBytes} bytes`);
}

/**
 * Writes a well-formed one-page PDF of exactly `totalBytes` (header, objects, cross-reference table,
 * %%EOF) whose bulk is one stream of random bytes: as incompressible as the compressed streams of
 * a real book, so a server that compressed it would gain nothing and show it.
 */
export function writeLargePdf(path: string, totalBytes: number): void {
  const { head, fillerBytes, tail } = frame(totalBytes);
  const file = openSync(path, "w");
  try {
    writeSync(file, Buffer.from(head, "latin1"));
    for (let written = 0; written < fillerBytes; written += CHUNK_BYTES) writeSync(file, randomBytes(Math.min(CHUNK_BYTES, fillerBytes - written)));
    writeSync(file, Buffer.from(tail, "latin1"));
  } finally {
    closeSync(file);
  }
}
