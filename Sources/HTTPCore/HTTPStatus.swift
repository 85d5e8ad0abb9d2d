/// An HTTP response status code with its kind and named constants.
public struct HTTPStatus: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The kind of a status, by its first digit.
    public enum Kind: String, Sendable, Hashable {
        /// 1xx
        case informational
        /// 2xx
        case successful
        /// 3xx
        case redirection
        /// 4xx
        case clientError
        /// 5xx
        case serverError
        /// Anything outside 100...599.
        case invalid
    }

    /// The numeric code.
    public let code: Int

    /// Creates a status from its code; any integer is accepted and unknown codes have kind `.invalid`.
    public init(code: Int) { self.code = code }

    /// The kind of this status.
    public var kind: Kind {
        switch code {
        case 100...199: .informational
        case 200...299: .successful
        case 300...399: .redirection
        case 400...499: .clientError
        case 500...599: .serverError
        default: .invalid
        }
    }

    /// The standard reason phrase, or an empty string for codes without one here.
    public var reasonPhrase: String { Self.reasonPhrases[code] ?? "" }

    /// The status as "429 Too Many Requests", or just the code when it has no reason phrase here.
    public var description: String {
        reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)"
    }

    /// Orders statuses by code.
    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    /// 200
    public static let ok = HTTPStatus(code: 200)
    /// 201
    public static let created = HTTPStatus(code: 201)
    /// 204
    public static let noContent = HTTPStatus(code: 204)
    /// 400
    public static let badRequest = HTTPStatus(code: 400)
    /// 401
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403
    public static let forbidden = HTTPStatus(code: 403)
    /// 404
    public static let notFound = HTTPStatus(code: 404)
    /// 408
    public static let requestTimeout = HTTPStatus(code: 408)
    /// 409
    public static let conflict = HTTPStatus(code: 409)
    /// 422
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 429
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 500
    public static let internalServerError = HTTPStatus(code: 500)
    /// 502
    public static let badGateway = HTTPStatus(code: 502)
    /// 503
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504
    public static let gatewayTimeout = HTTPStatus(code: 504)

    private static let reasonPhrases: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
        308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        408: "Request Timeout", 409: "Conflict", 422: "Unprocessable Content",
        429: "Too Many Requests",
        500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}
