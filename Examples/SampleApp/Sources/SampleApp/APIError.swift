import Foundation

/// Why an API call failed, as the app's screens need to tell it apart.
public enum APIError: Error, Sendable, Hashable {
    /// No session: there is no access token to send.
    case notSignedIn
    /// 403 on an authenticated call: the account is blocked (handled globally as well).
    case forbidden
    /// The account was deactivated (403 `USER_INACTIVE` or `active: false`).
    case accountInactive
    /// The account was deleted (403 `USER_DELETED` or `is_deleted: true`).
    case accountDeleted
    /// The session is over: the token was refused and could not be refreshed.
    case sessionEnded
    /// 429 or 503 that backoff did not get past; `retryAfter` in seconds when the server said.
    case rateLimited(retryAfter: Int?, status: Int)
    /// Any other non-success status.
    case server(status: Int, code: String?)
    /// No HTTP answer at all.
    case network
    /// A 2xx answer whose body is not what the contract promises.
    case badBody
}
