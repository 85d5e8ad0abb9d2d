/// The one thing a client stack needs from the network: send a request, get a response.
///
/// Any status is a response, not an error; a conforming type throws only ``TransportError``,
/// for requests that got no HTTP answer at all.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the backend's answer.
    /// - Throws: ``TransportError`` when no HTTP response arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
