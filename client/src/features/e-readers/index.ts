// The e-readers feature's public file (docs/decisions/0057-client-feature-folders.md): the keys of
// e-reader apps, a section of the settings screen.
export { EReaderKeysSection } from "./e-reader-keys-section";
