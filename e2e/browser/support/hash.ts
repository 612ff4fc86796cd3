/** The hash Baton records for a JSON artifact: SHA-256 of its RFC 8785 canonical form (jcs-sha256). */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

export const jcsSha256 = (text: string): string =>
  createHash('sha256')
    .update(canonicalize(JSON.parse(text)) ?? '', 'utf8')
    .digest('hex');
