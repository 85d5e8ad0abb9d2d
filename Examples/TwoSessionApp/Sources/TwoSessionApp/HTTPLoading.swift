import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an ``APIClient`` needs from the network: one request in, body and response out. A
/// `URLSession` is one; tests and tools can put something else in its place.
public protocol HTTPLoading: Sendable {
    /// Sends the request and returns the body and the response.
    func load(_ request: URLRequest) async throws -> (Data, URLResponse)
}

extension URLSession: HTTPLoading {
    /// `data(for:)`, without a task delegate.
    public func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}
