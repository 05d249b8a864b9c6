/**
 * A self-signed certificate (EC P-256, CN mx.mailworld.test, SAN *.test, valid until 2126) generated once with
 * openssl and shipped with the package: STARTTLS on loopback needs no trust, and generating keys at start costs time.
 */
export const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg770ZCDQjk9bgFDQc
IJS5sh6N99K/6lhsEeth9sH64n6hRANCAAT7l7x0JxGKD+8MLH5xdylkmsIrcM7Z
pLeIMjyWI+bvhB5PZb6dkyG2rPW9C7xNpDZ7jSzlxPxLDc7POJusMAjI
-----END PRIVATE KEY-----
`;

export const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIICAzCCAamgAwIBAgIUQltYMWdkxVUSgkVulKOQQ67VelwwCgYIKoZIzj0EAwIw
OjEaMBgGA1UEAwwRbXgubWFpbHdvcmxkLnRlc3QxHDAaBgNVBAoME1ZlcmlsZWFk
IE1haWwgV29ybGQwIBcNMjYxMTIyMTQyNzAzWhgPMjEyNjEwMjkxNDI3MDNaMDox
GjAYBgNVBAMMEW14Lm1haWx3b3JsZC50ZXN0MRwwGgYDVQQKDBNWZXJpbGVhZCBN
YWlsIFdvcmxkMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+5e8dCcRig/vDCx+
cXcpZJrCK3DO2aS3iDI8liPm74QeT2W+nZMhtqz1vQu8TaQ2e40s5cT8Sw3Ozzib
rDAIyKOBijCBhzAdBgNVHQ4EFgQUS7bvj/BpD00EZ5TK9+acc6DDtqcwHwYDVR0j
BBgwFoAUS7bvj/BpD00EZ5TK9+acc6DDtqcwDwYDVR0TAQH/BAUwAwEB/zA0BgNV
HREELTArggYqLnRlc3SCEG14LnN0YXJ0dGxzLnRlc3SCCWxvY2FsaG9zdIcEfwAA
ATAKBggqhkjOPQQDAgNIADBFAiEA4L4NfbsuseETEHbERkiwZAtAMgmkUtbM8BWT
dnEk9LICIHf2u6sWl22R9s3mC+B1S4ElFKdNDdd6vL2X6eAgAMIB
-----END CERTIFICATE-----
`;
