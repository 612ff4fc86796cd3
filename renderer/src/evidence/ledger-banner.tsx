/** The ledger's verification state, first thing on the Evidence screen. */
import type { SignatureState, VerifyReport } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import { Icon, type IconName } from '../components/icon';

const SIGNATURE: Record<SignatureState, { icon: IconName; word: string; tone: string }> = {
  signed: { icon: 'shield', word: 'signed', tone: 'tone-text-success' },
  unsigned: { icon: 'minus', word: 'unsigned', tone: 'muted' },
  invalid: { icon: 'red', word: 'signature invalid', tone: 'tone-text-danger' },
  untrusted: { icon: 'warning', word: 'signed by an untrusted key', tone: 'tone-text-warning' },
};

/** "signed to #40 · 3 records unsigned": how far the checkpoints vouch, never more than they do. */
const signatureWords = (report: VerifyReport, word: string): string => {
  const c = report.checkpoints;
  if (!c || c.signedSeq === null || report.signature === 'invalid') return word;
  const tail = c.unsignedTail > 0 ? ` · ${count(c.unsignedTail)} ${c.unsignedTail === 1 ? 'record' : 'records'} after it unsigned` : '';
  return `${word} to #${c.signedSeq}${tail}`;
};

const MAX_PROBLEMS = 5;
const count = (n: number): string => n.toLocaleString('en-US');

interface Props {
  readonly report: VerifyReport | null;
  readonly error: AppError | null;
  readonly verifying: boolean;
  /** A Consort project: no ledger, only its gates' hashes to check. */
  readonly foreign: boolean;
  onVerify(): void;
}

export function LedgerBanner({ report, error, verifying, foreign, onVerify }: Props) {
  if (!report) {
    return (
      <div className="ledger-banner tone-box-neutral" data-testid="ledger-banner" data-state={error ? 'error' : 'verifying'} role="status">
        <Icon name={error ? 'warning' : 'clock'} />
        <span className="ledger-banner-title">{error ? `Could not verify the ledger: ${error.message}` : 'Verifying the ledger…'}</span>
        {error && (
          <button type="button" className="button" onClick={onVerify}>
            Try again
          </button>
        )}
      </div>
    );
  }
  const { chain } = report;
  const state = !chain.ok ? 'broken' : report.ok ? 'intact' : 'problems';
  const tone = state === 'broken' ? 'tone-box-danger' : state === 'problems' ? 'tone-box-warning' : 'tone-box-success';
  const records = `${count(report.records)} ${report.records === 1 ? 'record' : 'records'}`;
  const head = report.head ? `head ${report.head.slice(0, 8)}…` : 'no head yet';
  const gates = `${report.gates.length} ${report.gates.length === 1 ? 'gate' : 'gates'} checked`;
  const title = foreign
    ? `${state === 'intact' ? 'Gate hashes intact' : 'Gate hashes do not match'} · ${gates} · no Baton ledger`
    : state === 'broken'
      ? `Ledger broken at record #${chain.brokenAt ?? '?'}`
      : // A ledger cut short still chains perfectly: "intact" only when nothing else is wrong.
        state === 'problems'
        ? `Ledger chain unbroken · ${records} · ${head} · ${report.problems.length} ${report.problems.length === 1 ? 'problem' : 'problems'}`
        : `Ledger intact · ${records} · ${head}`;
  const signature = SIGNATURE[report.signature] ?? SIGNATURE.unsigned;
  return (
    <div className={`ledger-banner ${tone}`} data-testid="ledger-banner" data-state={state} role="status">
      <div className="ledger-banner-row">
        <Icon name={state === 'intact' ? 'green' : state === 'broken' ? 'red' : 'warning'} />
        <span className="ledger-banner-title" title={report.head ?? undefined}>
          {title}
        </span>
        {!foreign && (
          <span className={`ledger-signature ${signature.tone}`} data-testid="ledger-signature" title={report.checkpoints?.message ?? undefined}>
            <Icon name={signature.icon} />
            {signatureWords(report, signature.word)}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="button" onClick={onVerify} disabled={verifying}>
          {verifying ? 'Verifying…' : 'Verify again'}
        </button>
      </div>
      {report.problems.length > 0 && (
        <ul className="ledger-problems" role="list">
          {report.problems.slice(0, MAX_PROBLEMS).map((problem, i) => (
            <li key={i}>
              <code>{problem.file}</code>
              {problem.seq !== undefined && <span className="mono"> #{problem.seq}</span>} — {problem.message}
            </li>
          ))}
          {report.problems.length > MAX_PROBLEMS && (
            <li className="muted">…and {report.problems.length - MAX_PROBLEMS} more: run `baton verify` for the full list.</li>
          )}
        </ul>
      )}
    </div>
  );
}
