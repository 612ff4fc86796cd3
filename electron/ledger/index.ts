/**
 * The evidence layer: hashing, the hash-chained ledger with its blobs, verification, head signing,
 * review bundles and in-toto attestations. Formats are documented in each module's header.
 */
export { canonicalJson, hashArtifact, jcsSha256, normalizeText, recordHash, sha256Hex, textSha256, type ArtifactHash } from './hashing';
export { Ledger, type AppendInput, type LedgerSnapshot, type LedgerTx } from './ledger';
export { personSignatureOf, signPersonRecord, type PersonSignature } from './person-signing';
export { verifyChain, type ChainReport, type VerifyOptions } from './verify-chain';
export {
  checkpointIfKeyed,
  checkSignature,
  CHECKPOINTS_FILE,
  loadOrCreateSigningKey,
  loadSigningKey,
  rotateSigningKey,
  signHead,
  SIGNING_KEY_FILE,
  type HeadSignature,
  type SignatureCheck,
  type SigningKey,
  type TrustedKeys,
} from './signing';
export { exportBundle, type ExportOptions, type ExportSummary } from './bundle';
export { isBundleFile, openBundle, MAX_BUNDLE_BYTES } from './open-bundle';
export { ARTIFACT_DIRS, BundleManifestSchema, type BundleManifest } from './bundle-manifest';
export { greenAttestations, STATEMENT_TYPE, TEST_RESULT_PREDICATE } from './attestations';
