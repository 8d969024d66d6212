// The dashboard feature's public file (docs/decisions/0057-client-feature-folders.md): the author's
// figures, books and downloads, and the admin's tab. Its screen is loaded by App.tsx with import(),
// and no other feature uses anything of it.
export {};
