/**
 * PGlite's shared buffers unless told otherwise (PGLITE_SHARED_BUFFERS). With its default of 128 MB its
 * memory grew to 189 MB at start, 151 MB of it resident for the process's life; with 16 MB, 29 MB
 * resident. The data folder is read through the operating system's page cache anyway: a smaller pool
 * costs copies, not disk reads (docs/decisions/0045).
 */
export const PGLITE_SHARED_BUFFERS = "16MB";
