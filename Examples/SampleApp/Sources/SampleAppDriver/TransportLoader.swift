import Foundation
import HTTPCore
import SampleApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the app's `URLRequest`s to an ``HTTPTransport`` (the scenario's backend on the direct
/// route) and gives its answers back as `HTTPURLResponse`s.
struct TransportLoader: HTTPDataLoading {
    let transport: any HTTPTransport

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await transport.data(for: request)
    }
}
