import { Webhook } from 'standardwebhooks';
import { resolveConfig } from '../../src/config/config-file';
import { GiveWay } from '../../src/modules/webhooks/give-way';
import { isRefusedAddress, readWebhookUrl } from '../../src/modules/webhooks/webhook-address';
import { MAX_RETRY_DELAY_MS, retryDelay } from '../../src/modules/webhooks/webhook-delivery.job';
import { newSecret, signature } from '../../src/modules/webhooks/webhook-sender';

describe('webhooks: config', () => {
  it('fills in the defaults', () => {
    expect(resolveConfig({}).webhooks).toEqual({
      allowPrivateNetworks: false,
      retry: { attempts: 8, baseDelayMs: 10_000 },
      disableAfterFailures: 20,
      timeoutMs: 10_000,
    });
    expect(resolveConfig({ webhooks: { retry: { attempts: 3 } } }).webhooks.retry).toEqual({
      attempts: 3,
      baseDelayMs: 10_000,
    });
  });

  it('refuses values out of range, naming each', () => {
    expect(() =>
      resolveConfig({
        webhooks: {
          allowPrivateNetworks: 'yes' as never,
          retry: { attempts: 0, baseDelayMs: 1.5 },
          disableAfterFailures: -1,
          timeoutMs: 60_000,
        },
      }),
    ).toThrow(
      /allowPrivateNetworks[\s\S]*retry\.attempts[\s\S]*retry\.baseDelayMs[\s\S]*disableAfterFailures[\s\S]*timeoutMs/,
    );
  });
});

describe('webhooks: retry delays', () => {
  it('doubles from baseDelayMs with ±20% jitter, at most 6 hours', () => {
    expect(retryDelay(10_000, 1, 0)).toBe(8_000);
    expect(retryDelay(10_000, 1, 1)).toBe(12_000);
    expect(retryDelay(10_000, 3, 0.5)).toBe(40_000);
    expect(retryDelay(10_000, 20, 1)).toBe(MAX_RETRY_DELAY_MS);
  });
});

describe('webhooks: addresses', () => {
  it('refuses private, loopback, link-local, multicast and reserved addresses, IPv4-mapped too', () => {
    const refused = [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.255.0.9',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'febf::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '100.63.255.255',
      '100.128.0.1',
      '172.15.255.255',
      '172.32.0.1',
      '192.169.0.1',
      '223.255.255.255',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      'fec0::1',
    ];
    expect(refused.filter((a) => !isRefusedAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isRefusedAddress(a))).toEqual([]);
  });

  it('reads URLs as the WHATWG parser does before checking an address literal', () => {
    const read = (url: string, allow = false) => readWebhookUrl(url, allow);
    expect(read('http://2130706433/')).toMatchObject({ issue: { path: 'url' } });
    expect(read('http://127.1/')).toMatchObject({ issue: { path: 'url' } });
    expect(read('http://0x7f000001/')).toMatchObject({ issue: { path: 'url' } });
    expect(read('http://[::ffff:7f00:1]/')).toMatchObject({ issue: { path: 'url' } });
    expect(read('http://2130706433/hook', true)).toEqual({ url: 'http://127.0.0.1/hook' });
    expect(read('HTTPS://Example.COM:443/a b')).toEqual({ url: 'https://example.com/a%20b' });
    expect(read('http://localhost:3000/')).toEqual({ url: 'http://localhost:3000/' });
    expect(read('file:///etc/passwd')).toMatchObject({ issue: { path: 'url' } });
    expect(read('//example.com')).toMatchObject({ issue: { path: 'url' } });
  });
});

describe('webhooks: signatures', () => {
  it('signs as Standard Webhooks does', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({
      type: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { a: 'é' },
    });
    const at = new Date();
    const timestamp = Math.floor(at.getTime() / 1000);
    const sig = signature(secret, 'msg_abc', timestamp, body);
    expect(sig).toBe(new Webhook(secret).sign('msg_abc', at, body));
    const headers = {
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sig,
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });
});

describe('webhooks: deliveries give way to a burst of requests', () => {
  it('puts work off while requests are busy, at most the longest wait, until it has caught up', () => {
    const g = new GiveWay(4, 5000);
    expect(g.wait(3, 0)).toBe(false);
    expect(g.wait(4, 1000)).toBe(true);
    // A quiet moment does not restart the clock: the work put off is still waiting.
    expect(g.wait(0, 3000)).toBe(false);
    expect(g.wait(16, 5999)).toBe(true);
    expect(g.wait(16, 6000)).toBe(false);
    expect(g.wait(16, 60_000)).toBe(false);
    g.caughtUp();
    expect(g.wait(16, 61_000)).toBe(true);
    expect(g.wait(16, 65_999)).toBe(true);
    expect(g.wait(16, 66_000)).toBe(false);
  });
});
