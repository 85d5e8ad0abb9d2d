import Foundation

/// Why a call failed, as the app's screens tell failures apart.
public enum APIError: Error, Sendable, Hashable {
    /// There is no access token to send.
    case notSignedIn
    /// 403 on an authenticated call: the account is blocked (the session manager handles it once).
    case forbidden
    /// The account was deactivated (403 `USER_INACTIVE`, or `active: false` at startup).
    case accountInactive
    /// The account was deleted (403 `USER_DELETED`, or `is_deleted: true` at startup).
    case accountDeleted
    /// The token was refused and could not be refreshed: the user must sign in again.
    case sessionEnded
    /// 429 or 503 that was not retried (or retried without luck): `retryAfter` in seconds when
    /// the server said, and the message the user was shown.
    case rateLimited(retryAfter: Int?, status: Int, message: String)
    /// Any other non-success status, with the contract's `error_code` when there was one.
    case server(status: Int, code: String?)
    /// No HTTP answer at all (timeout, offline, connection lost).
    case network
    /// A 2xx answer whose body is not what the contract promises.
    case badBody
}
