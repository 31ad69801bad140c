// Request bodies the real-peer suites send to the controller's API directly (as another admin would).

interface AuthPolicyChange {
  cert?: Record<string, unknown>;
  extJwt?: Record<string, unknown>;
  updb?: Record<string, unknown>;
  secondary?: Record<string, unknown>;
  tags?: Record<string, unknown>;
}

/** A complete auth policy document (the create and PUT shape: every field required), with changes. */
export function authPolicyBody(name: string, change: AuthPolicyChange = {}) {
  return {
    name,
    primary: {
      cert: { allowed: true, allowExpiredCerts: false, ...change.cert },
      extJwt: { allowed: false, allowedSigners: [], ...change.extJwt },
      updb: {
        allowed: true,
        lockoutDurationMinutes: 0,
        maxAttempts: 3,
        minPasswordLength: 5,
        requireMixedCase: false,
        requireNumberChar: false,
        requireSpecialChar: false,
        ...change.updb,
      },
    },
    secondary: { requireTotp: false, ...change.secondary },
    ...(change.tags ? { tags: change.tags } : {}),
  };
}
