// The reader feature's public file (docs/decisions/0057-client-feature-folders.md): a book read in the
// browser. Its screen is loaded by App.tsx with import(), and no other feature uses anything of it.
export {};
