import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one call the API client needs from the network, so tests and tools can stand in for
/// `URLSession` without subclassing it.
public protocol HTTPDataLoading: Sendable {
    /// Loads the request and returns the body and the response, as `URLSession.data(for:)` does.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
}

extension URLSession: HTTPDataLoading {
    /// Loads the request with no task delegate.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        // The delegate-taking overload is the one URLSession ships; naming it avoids recursion.
        try await data(for: request, delegate: nil)
    }
}
