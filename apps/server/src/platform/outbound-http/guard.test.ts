import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, OutboundRefusedError, resolveDestination } from './guard';

const refusedLiterals = [
  // IPv4 special-purpose registry
  '0.0.0.0', '0.1.2.3', '10.1.2.3', '100.64.0.1', '100.127.255.254', '127.0.0.1', '127.8.9.10', '169.254.169.254', '172.16.5.4', '172.31.255.255',
  '192.0.0.8', '192.0.2.10', '192.88.99.1', '192.168.1.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250',
  '240.0.0.1', '255.255.255.255',
  // IPv6 special-purpose registry
  '::', '::1', '100::1', '100::ffff:ffff:ffff:ffff', '2001:db8::1', '2001:db8:ffff::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'febf::1', 'ff02::1', 'ff0e::1',
  '2001:2::1', '2001:10::1', '2001:20::1', '3fff::1', '5f00::1',
  // IPv6 forms that embed an IPv4 address
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::127.0.0.1', '::7f00:1', '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::a00:1',
  '64:ff9b:1::7f00:1', '64:ff9b:1:abcd::a00:1', '2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1', '2001:0:4136:e378:8000:63bf:80ff:fffe',
  '2001::1', '2001:0:1:2:3:4:5:6',
];

const allowedLiterals = ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2001:4860:4860::8888', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];

describe('outbound destination guard', () => {
  it('refuses every special-purpose range, IPv4 and IPv6, and every IPv6 form embedding a refused IPv4', () => {
    expect(refusedLiterals.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(allowedLiterals.filter((a) => isPrivateAddress(a))).toEqual([]);
  });

  it('refuses bracketed IPv6 literals that embed loopback in a URL', async () => {
    for (const url of ['http://[::127.0.0.1]/x', 'http://[64:ff9b::7f00:1]/x', 'http://[2002:7f00:1::1]/x', 'http://[100::1]/x', 'http://[::ffff:127.0.0.1]:8080/x', 'http://192.0.2.1/x']) {
      await expect(resolveDestination(url, { allowPrivate: false }), url).rejects.toBeInstanceOf(OutboundRefusedError);
    }
  });

  it("refuses the host's own interface addresses, even public-looking ones", async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => Boolean(a));
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(isPrivateAddress(address), address).toBe(true);
    // A name that resolves to one of them is refused as well.
    await expect(
      resolveDestination('http://hooks.customer.test/x', { allowPrivate: false, lookup: async () => [{ address: '93.184.216.34', family: 4 }], ownAddresses: () => ['93.184.216.34'] }),
    ).rejects.toThrow(/this server's own/);
  });

  it('tells a self-hoster how to allow private destinations', async () => {
    await expect(resolveDestination('http://10.1.2.3/hook', { allowPrivate: false })).rejects.toThrow(/ALLOW_PRIVATE_DESTINATIONS=true/);
    await expect(resolveDestination('http://[::127.0.0.1]/hook', { allowPrivate: true })).resolves.toMatchObject({ address: '::7f00:1', family: 6 });
  });

  it('pins the checked address for delivery (the IPv4 a mapped name resolves to is what is dialled)', async () => {
    await expect(resolveDestination('http://hooks.customer.test/x', { allowPrivate: false, lookup: async () => [{ address: '93.184.216.34', family: 4 }] })).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(
      resolveDestination('http://hooks.customer.test/x', {
        allowPrivate: false,
        lookup: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '::ffff:169.254.169.254', family: 6 },
        ],
      }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
  });
});
