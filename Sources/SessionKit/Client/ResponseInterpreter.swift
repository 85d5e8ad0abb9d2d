import Foundation
import HTTPCore

/// Turns an HTTP response into a success or an ``APIError``: status first, body second.
///
/// Pure, so that every row of the status table is tested without a transport. The 401 and
/// 403 rows of authenticated calls are reported as ``Verdict`` cases of their own, because
/// they start session-wide work (a refresh, a wipe) that only the client can do.
public struct ResponseInterpreter: Sendable {
    /// What a response means to the client.
    public enum Verdict: Sendable, Hashable {
        /// A 2xx; the body (if JSON) is passed on.
        case success(JSONValue?)
        /// 401 on an authenticated call that a refresh may cure (`TOKEN_EXPIRED`, or no code).
        case refreshableUnauthorized
        /// 401 `TOKEN_INVALID` on an authenticated call: the session is over.
        case invalidToken
        /// 403 on an authenticated call with a code other than inactive/deleted: blocked.
        case blocked
        /// 403 `USER_INACTIVE` / `USER_DELETED` on an authenticated call: the account is unusable.
        case accountUnusable(APIError)
        /// Any other failure, for the caller as is.
        case failure(APIError)
    }

    /// The fallback message of a 429 without a readable one.
    public static let rateLimitFallbackMessage = "Demasiados intentos. Intenta de nuevo más tarde."
    /// The fallback message of a 400 without a readable one.
    public static let badRequestFallbackMessage = "Invalid request"

    private let now: @Sendable () -> Date

    /// Creates an interpreter; `now` dates `Retry-After` HTTP-dates.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Interprets a response to a call that did (`authenticated`) or did not carry a token.
    public func interpret(_ response: HTTPResponse, authenticated: Bool) -> Verdict {
        // The status decides; the body is read after it, and leniently: an empty, non-JSON or
        // oddly shaped body just means "no details".
        guard response.status.kind != .successful else { return .success(JSONValue.decode(response.body)) }
        let envelope = ErrorEnvelope(body: JSONValue.decode(response.body))

        switch response.status {
        case .unauthorized:
            guard authenticated else { return .failure(.unauthorized) }
            return envelope.errorCode == .tokenInvalid ? .invalidToken : .refreshableUnauthorized
        case .forbidden:
            if let unusable = Self.accountError(envelope.errorCode) {
                return authenticated ? .accountUnusable(unusable) : .failure(unusable)
            }
            return authenticated ? .blocked : .failure(.forbidden)
        case .tooManyRequests:
            return .failure(
                .rateLimited(
                    message: envelope.firstMessage ?? Self.rateLimitFallbackMessage,
                    retryAfter: retryAfter(response)))
        case .serviceUnavailable:
            return .failure(.serviceUnavailable(retryAfter: retryAfter(response)))
        case .unprocessableContent:
            return .failure(.validationFailed(envelope.errors))
        case .badRequest:
            if envelope.errorCode == .validationFailed {
                return .failure(.validationFailed(envelope.errors))
            }
            return .failure(.badRequest(message: envelope.firstMessage ?? Self.badRequestFallbackMessage))
        case .notFound:
            return .failure(.notFound)
        default:
            if response.status.kind == .serverError {
                return .failure(.serverError(status: response.status.code))
            }
            return .failure(.unexpectedStatus(response.status.code))
        }
    }

    private func retryAfter(_ response: HTTPResponse) -> Duration? {
        RetryAfter.parse(response.headers[HTTPFields.Name.retryAfter], now: now())
    }

    private static func accountError(_ code: ErrorCode?) -> APIError? {
        switch code {
        case .userInactive: .accountInactive
        case .userDeleted: .accountDeleted
        default: nil
        }
    }
}
