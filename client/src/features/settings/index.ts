// The settings feature's public file (docs/decisions/0057-client-feature-folders.md): the account's
// settings. Its screen is loaded by App.tsx with import(), and no other feature uses anything of it.
export {};
