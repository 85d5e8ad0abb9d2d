import HTTPCore

/// Every way a call through the session stack can fail, with a stable ``code`` for reports.
public enum APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 403 on an authenticated call: the account is blocked (handled globally, once).
    case forbidden
    /// 429: the request did not go through; carries the server's message and `Retry-After`.
    case rateLimited(message: String, retryAfter: Duration?)
    /// 503: the backend is down; carries `Retry-After` when given.
    case serviceUnavailable(retryAfter: Duration?)
    /// 401 on an unauthenticated call, such as wrong credentials on login.
    case unauthorized
    /// 401 `TOKEN_INVALID`: the session is over, no refresh was tried.
    case tokenInvalid
    /// The token could not be refreshed, or the repeated request was refused again.
    case sessionExpired
    /// The account is deactivated (`USER_INACTIVE` or `active: false`).
    case accountInactive
    /// The account is deleted (`USER_DELETED` or `is_deleted: true`).
    case accountDeleted
    /// 422, or 400 `VALIDATION_FAILED`: the input was refused, field by field.
    case validationFailed([FieldError])
    /// 404.
    case notFound
    /// 400 without validation details.
    case badRequest(message: String)
    /// 5xx other than 503.
    case serverError(status: Int)
    /// A status the contract does not define for this call (1xx, 3xx, other 4xx).
    case unexpectedStatus(Int)
    /// A successful status whose body is not the expected shape.
    case undecodableBody
    /// No HTTP answer at all.
    case transport(TransportError.Code)
    /// An authenticated call with no stored access token.
    case notAuthenticated
    /// The device is offline; nothing was sent.
    case offline
    /// Blocking one's own account is refused before any request.
    case cannotBlockSelf
    /// Verifying a code before one was sent.
    case verificationNotStarted
    /// Local storage refused to save the session.
    case storageFailed

    /// A stable lowerCamel identifier, the same for every payload of a case.
    public var code: String {
        switch self {
        case .forbidden: "forbidden"
        case .rateLimited: "rateLimited"
        case .serviceUnavailable: "serviceUnavailable"
        case .unauthorized: "unauthorized"
        case .tokenInvalid: "tokenInvalid"
        case .sessionExpired: "sessionExpired"
        case .accountInactive: "accountInactive"
        case .accountDeleted: "accountDeleted"
        case .validationFailed: "validationFailed"
        case .notFound: "notFound"
        case .badRequest: "badRequest"
        case .serverError: "serverError"
        case .unexpectedStatus: "unexpectedStatus"
        case .undecodableBody: "undecodableBody"
        case .transport: "transport"
        case .notAuthenticated: "notAuthenticated"
        case .offline: "offline"
        case .cannotBlockSelf: "cannotBlockSelf"
        case .verificationNotStarted: "verificationNotStarted"
        case .storageFailed: "storageFailed"
        }
    }

    /// A short label fit for a report line.
    public var description: String {
        switch self {
        case .forbidden: "forbidden: the account is blocked"
        case .rateLimited(let message, let retryAfter):
            "rate limited: \(message)\(Self.label(retryAfter))"
        case .serviceUnavailable(let retryAfter): "service unavailable\(Self.label(retryAfter))"
        case .unauthorized: "unauthorized: credentials refused"
        case .tokenInvalid: "token invalid: the session ended"
        case .sessionExpired: "session expired: sign in again"
        case .accountInactive: "account inactive"
        case .accountDeleted: "account deleted"
        case .validationFailed(let errors):
            "validation failed: "
                + errors.map { ($0.field.map { "\($0): " } ?? "") + $0.message }
                .joined(separator: "; ")
        case .notFound: "not found"
        case .badRequest(let message): "bad request: \(message)"
        case .serverError(let status): "server error \(status)"
        case .unexpectedStatus(let status): "unexpected status \(status)"
        case .undecodableBody: "undecodable response body"
        case .transport(let code): "transport error: \(code.rawValue)"
        case .notAuthenticated: "not authenticated: no stored token"
        case .offline: "offline: nothing was sent"
        case .cannotBlockSelf: "cannot block yourself"
        case .verificationNotStarted: "no verification code was sent"
        case .storageFailed: "could not save the session"
        }
    }

    /// The message the server gave for this failure, when it gave one.
    public var serverMessage: String? {
        switch self {
        case .rateLimited(let message, _): message
        case .validationFailed(let errors): errors.first?.message
        case .badRequest(let message): message
        default: nil
        }
    }

    private static func label(_ retryAfter: Duration?) -> String {
        guard let retryAfter else { return "" }
        return " (retry after \(retryAfter.components.seconds) s)"
    }
}
