import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed attempt, as the retry hook sees it.
public struct APIFailure: Sendable {
    /// What went wrong this time.
    public var error: APIError
    /// The request as it was sent (headers included, so the hook can tell which token it carried).
    public var sentRequest: URLRequest
    /// Sends so far, this one included.
    public var attempts: Int
    /// The errors of the earlier attempts of the same call, oldest first.
    public var earlierErrors: [APIError]
}

/// The app's policy for one ``APIClient``: what every request carries, what counts as a
/// failure, and which failures are worth another attempt. Every hook has a default.
public protocol APIClientDelegate: Sendable {
    /// Last changes to a request before it is sent (headers such as `Authorization`).
    func willSendRequest(_ request: inout URLRequest, for call: APIRequest, client: APIClient) async throws(APIError)
    /// Throws when the answer is not a success; the default maps the status with ``APIError/init(status:body:headers:now:)``.
    func validateResponse(_ response: HTTPURLResponse, data: Data, for call: APIRequest, client: APIClient) throws(APIError)
    /// Whether to send the call again after `failure`; may wait first, or throw a different error.
    /// The default never retries.
    func shouldClientRetry(_ call: APIRequest, after failure: APIFailure, client: APIClient) async throws(APIError) -> Bool
}

extension APIClientDelegate {
    /// Sends the request as it is.
    public func willSendRequest(_ request: inout URLRequest, for call: APIRequest, client: APIClient) async throws(APIError) {}

    /// Anything outside 2xx is an error, read from the contract's error envelope.
    public func validateResponse(_ response: HTTPURLResponse, data: Data, for call: APIRequest, client: APIClient) throws(APIError) {
        guard (200..<300).contains(response.statusCode) else {
            throw APIError(status: response.statusCode, body: data, headers: APIClient.headers(of: response), now: Date())
        }
    }

    /// Never retries.
    public func shouldClientRetry(_ call: APIRequest, after failure: APIFailure, client: APIClient) async throws(APIError) -> Bool {
        false
    }
}

extension APIError {
    /// The contract's reading of a non-2xx answer: status first, then the body's `error_code`.
    public init(status: Int, body: Data, headers: [String: String], now: Date) {
        let envelope = ErrorEnvelope.read(body)
        switch status {
        case 401:
            self = .unauthorized(code: envelope?.errorCode)
        case 403:
            switch envelope?.errorCode {
            case "USER_INACTIVE": self = .accountInactive
            case "USER_DELETED": self = .accountDeleted
            default: self = .forbidden
            }
        case 429, 503:
            self = .rateLimited(
                status: status, retryAfter: RetryAfter.seconds(headers["retry-after"], now: now),
                message: envelope?.errors?.first?.message)
        default:
            self = .server(status: status, code: envelope?.errorCode)
        }
    }
}
