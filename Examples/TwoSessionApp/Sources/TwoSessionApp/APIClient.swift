import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP client for one backend, over ONE `URLSession` of its own (or any ``HTTPLoading``).
/// Policy (tokens, validation, retries) belongs to its ``APIClientDelegate``; the client only
/// builds requests, sends them and asks the delegate what to do about failures.
public final class APIClient: Sendable {
    /// Where paths are resolved.
    public let baseURL: URL
    private let loader: any HTTPLoading
    private let delegate: any APIClientDelegate

    /// A client over a loader of your choice.
    public init(baseURL: URL, loader: any HTTPLoading, delegate: any APIClientDelegate) {
        self.baseURL = baseURL
        self.loader = loader
        self.delegate = delegate
    }

    /// A client that owns a `URLSession` built from `sessionConfiguration`.
    public convenience init(baseURL: URL, sessionConfiguration: URLSessionConfiguration, delegate: any APIClientDelegate) {
        self.init(baseURL: baseURL, loader: URLSession(configuration: sessionConfiguration), delegate: delegate)
    }

    /// Sends `call` until it succeeds or the delegate stops retrying.
    public func send(_ call: APIRequest) async throws(APIError) -> APIResponse {
        var earlier: [APIError] = []
        while true {
            var request = URLRequest(url: baseURL.appendingPathComponent(call.path))
            request.httpMethod = call.method
            for (name, value) in call.headers.sorted(by: { $0.key < $1.key }) { request.setValue(value, forHTTPHeaderField: name) }
            if let body = call.body {
                request.httpBody = body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            try await delegate.willSendRequest(&request, for: call, client: self)
            do {
                let (status, data, headers) = try await load(request, for: call)
                return APIResponse(status: status, data: data, headers: headers, attempts: earlier.count + 1)
            } catch {
                let failure = APIFailure(error: error, sentRequest: request, attempts: earlier.count + 1, earlierErrors: earlier)
                guard try await delegate.shouldClientRetry(call, after: failure, client: self) else { throw error }
                earlier.append(error)
            }
        }
    }

    private func load(_ request: URLRequest, for call: APIRequest) async throws(APIError) -> (Int, Data, [String: String]) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await loader.load(request)
        } catch {
            throw .network
        }
        guard let http = response as? HTTPURLResponse else { throw .network }
        try delegate.validateResponse(http, data: data, for: call, client: self)
        return (http.statusCode, data, Self.headers(of: http))
    }

    /// The response's header fields with lowercased names.
    public static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }
}
