import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one call the API client needs from the network, in `URLSession`'s completion-handler
/// shape, so a test or a tool can stand in for `URLSession` without subclassing it.
public protocol HTTPLoading: Sendable {
    /// Starts loading `request`; `completionHandler` is called once, on any thread.
    func load(_ request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
}

extension URLSession: HTTPLoading {
    /// `dataTask(with:completionHandler:)`, resumed at once.
    public func load(_ request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        dataTask(with: request, completionHandler: completionHandler).resume()
    }
}
