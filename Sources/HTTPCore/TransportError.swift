/// A request that got no HTTP answer, in the terms URLSession reports.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The request timed out (`NSURLErrorTimedOut`).
        case timedOut
        /// The device is offline (`NSURLErrorNotConnectedToInternet`).
        case notConnectedToInternet
        /// The connection dropped mid-request (`NSURLErrorNetworkConnectionLost`).
        case networkConnectionLost
        /// The host could not be reached (`NSURLErrorCannotConnectToHost`).
        case cannotConnectToHost
        /// The request was cancelled (`NSURLErrorCancelled`).
        case cancelled
        /// The response could not be read (`NSURLErrorBadServerResponse`).
        case badServerResponse
        /// Anything else the transport reported.
        case other
    }

    /// What went wrong.
    public let code: Code
    /// A short human-readable detail, such as the underlying error's description.
    public let detail: String

    /// Creates a transport error.
    public init(_ code: Code, detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// The error as "transport error: timedOut", with the detail in parentheses if any.
    public var description: String {
        detail.isEmpty ? "transport error: \(code.rawValue)" : "transport error: \(code.rawValue) (\(detail))"
    }
}
