/** Gates: what each covers, their state from the ledger, drift, fail-closed decisions, evidence and verification. */
export { PREREQUISITE, downstreamOf, gateArtifacts, batonGateName } from './definitions';
export { foldGates, gateKey, type GateFold, type GateApproval, type FoldStatus } from './state';
export { annotateGates } from './annotate';
export { approveGate, rejectGate, withdrawGate, type ApproveRequest, type ReasonedRequest } from './decide';
export { gateEvidence } from './evidence';
export { verifyGates } from './verify-gates';
export type { GateRef } from './artifacts';
export type { DriftEntry } from '../../shared/ledger';
