// A self-signed serving certificate for the ingress gateway's HTTPS listener, made in-process
// (EC P-256, SHA-256, 30 days) so no openssl binary is needed. The key goes straight into a
// Secret; neither is ever logged. Only the DER encoding an X.509 v3 certificate needs is here.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const der = (tag: number, body: Buffer): Buffer => {
  const n = body.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
const oid = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const value of rest) {
    const groups = [value & 0x7f];
    for (let v = value >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
};
const utf8 = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const time = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`, 'ascii'));

/**
 * A positive serial from 16 random bytes. DER wants an INTEGER's shortest form, so the first byte
 * is kept in 0x01-0x7f: a top bit set would make it negative, and a leading 0x00 before a byte
 * under 0x80 is padding OpenSSL refuses ("illegal padding"; one certificate in 256 did that).
 */
function serial(random: Buffer): Buffer {
  const bytes = Buffer.from(random);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return der(0x02, bytes);
}

export interface SelfSigned {
  certPem: string;
  keyPem: string;
}

/**
 * Certificate for `names` (the first is the subject's CN, all are DNS subjectAltNames);
 * `serialBytes` is for tests that need a given serial.
 */
export function selfSignedCertificate(names: readonly string[], now = new Date(), days = 30, serialBytes = randomBytes(16)): SelfSigned {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const algorithm = seq(oid('1.2.840.10045.4.3.2')); // ecdsa-with-SHA256
  const name = seq(set(seq(oid('2.5.4.3'), utf8(names[0]!))));
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + days * 86_400_000);
  const san = seq(...names.map((n) => der(0x82, Buffer.from(n, 'ascii'))));
  const extensions = der(0xa3, seq(seq(oid('2.5.29.17'), der(0x04, san))));
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    serial(serialBytes),
    algorithm,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, algorithm, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = cert
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`, keyPem };
}
