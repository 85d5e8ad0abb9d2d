import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one request costs without this engine: the floors the engine is measured against.
enum Floors {
    @inline(never) static func constant() async -> Int { 1 }

    /// An async call that returns a constant.
    static func constantCall(_ count: Int) async -> Duration {
        let clock = ContinuousClock()
        var sum = 0
        let elapsed = await clock.measure {
            for _ in 0..<count { sum &+= await constant() }
        }
        precondition(sum == count)
        return elapsed / count
    }

    actor Hop {
        var count = 0
        func touch() { count += 1 }
    }

    /// A task hop onto an actor (a serial executor) and back.
    static func serialHop(_ count: Int) async -> Duration {
        let hop = Hop()
        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            for _ in 0..<count { await hop.touch() }
        }
        return elapsed / count
    }

    /// Raw URLSession with a URLProtocol that answers at once: what URLProtocol stubbing costs.
    static func urlProtocolStub(_ count: Int) async -> Duration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ImmediateProtocol.self]
        let session = URLSession(configuration: configuration)
        guard let url = URL(string: "https://bench.example/ping") else { return .zero }
        let request = URLRequest(url: url)
        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            for _ in 0..<count { _ = try? await session.data(for: request) }
        }
        return elapsed / count
    }
}

/// Answers every request with an empty 200.
final class ImmediateProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
