import DispatchApp
import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the app's `URLRequest`s to an ``HTTPTransport`` (the scenario's backend on the direct
/// route) and calls the completion handler with its answer, as `dataTask` would.
struct TransportLoader: HTTPLoading {
    let transport: any HTTPTransport

    func load(_ request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        // Driver code: the async transport behind a completion handler.
        Task {
            do {
                let (data, response) = try await transport.data(for: request)
                completionHandler(data, response, nil)
            } catch {
                completionHandler(nil, nil, error)
            }
        }
    }
}
