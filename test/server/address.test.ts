import { describe, expect, it } from "vitest";
import { normalizeAddress } from "../../server/address.js";

describe("the address of the per-address limits (docs/server-limits.md)", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6 and keys other IPv6 by its /64", () => {
    expect(normalizeAddress("127.0.0.2")).toBe("127.0.0.2");
    expect(normalizeAddress("::ffff:192.0.2.9")).toBe("192.0.2.9");
    expect(normalizeAddress("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("[2001:db8::5]")).toBe("2001:db8:0:0::/64");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(normalizeAddress("::1")).toBe("0:0:0:0::/64");
  });
});
