import Foundation
import HTTPCore
import TwoSessionApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the app's `URLRequest`s to an ``HTTPTransport`` (the scenario's backend on the direct
/// route) and gives its answers back as `HTTPURLResponse`s.
struct TransportLoader: HTTPLoading {
    let transport: any HTTPTransport

    func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await transport.data(for: request)
    }
}
