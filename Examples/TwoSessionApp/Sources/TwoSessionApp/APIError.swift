/// Why a call failed, in the terms the app's screens and retry policy need.
public enum APIError: Error, Sendable, Hashable {
    /// An authenticated call with no access token stored.
    case notSignedIn
    /// 401, with the contract's `error_code` when the body had one.
    case unauthorized(code: String?)
    /// 403 on an authenticated call: the account is blocked.
    case forbidden
    /// 403 `USER_INACTIVE`, or a user with `active: false`.
    case accountInactive
    /// 403 `USER_DELETED`, or a user with `is_deleted: true`.
    case accountDeleted
    /// 429 or 503; `retryAfter` in seconds when the server said, `message` from `errors[0]`.
    case rateLimited(status: Int, retryAfter: Int?, message: String?)
    /// Any other status outside 2xx.
    case server(status: Int, code: String?)
    /// The session ended: the token was refused and could not be replaced.
    case sessionEnded
    /// No HTTP answer.
    case network
    /// A 2xx whose body is not what the contract promises.
    case badBody
}
