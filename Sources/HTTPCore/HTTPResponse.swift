import Foundation

/// An HTTP response: status, header fields and body bytes (possibly empty, possibly not JSON).
public struct HTTPResponse: Sendable, Hashable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPFields
    /// The body bytes, empty when there is none.
    public var body: Data

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
