import { describe, expect, it } from 'vitest';
import { isValidHost } from '../../src/server/request/valid-host.js';

describe('isValidHost (RFC 3986 §3.2.2)', () => {
  it('accepts names, IPv4, bracketed IPv6, underscores (docker service names) and ports', () => {
    for (const host of ['example.com', 'localhost:8080', '127.0.0.1', '[::1]:443', '[2001:db8::1]', 'scim_server:8080', 'xn--bcher-kva.example', 'host:']) {
      expect(isValidHost(host), host).toBe(true);
    }
  });

  it('refuses what would bend a URL built from it', () => {
    for (const host of ['', 'evil.example/x?', 'a@b', '"><script>', '[::1', 'h:99999999', 'h:65536', 'a b', 'host#frag', 'h\\x']) {
      expect(isValidHost(host), host).toBe(false);
    }
  });
});
