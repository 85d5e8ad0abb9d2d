import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`: the only place in the package that touches it.
public struct URLSessionHTTPTransport: HTTPTransport {
    private let baseURL: URL
    private let session: URLSession

    /// Creates a transport that resolves request paths against `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Sends the request through the session and returns its response, headers sorted by name.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let urlRequest = try makeURLRequest(request)
        let data: Data
        let urlResponse: URLResponse
        do {
            (data, urlResponse) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw TransportError(Self.code(for: error.code), detail: error.localizedDescription)
        } catch is CancellationError {
            throw TransportError(.cancelled)
        } catch {
            throw TransportError(.other, detail: String(describing: error))
        }
        guard let http = urlResponse as? HTTPURLResponse else {
            throw TransportError(.badServerResponse, detail: "not an HTTP response")
        }
        var headers = HTTPFields()
        // Sorted so that a response reads the same on every run and platform.
        for (name, value) in http.allHeaderFields.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            headers.append(name: "\(name)", value: "\(value)")
        }
        return HTTPResponse(status: HTTPStatus(code: http.statusCode), headers: headers, body: data)
    }

    private func makeURLRequest(_ request: HTTPRequest) throws -> URLRequest {
        let base =
            baseURL.absoluteString.hasSuffix("/")
            ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + request.target) else {
            throw TransportError(.other, detail: "cannot form a URL from \(request.target)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// Maps URLSession's error codes to the transport's vocabulary.
    static func code(for code: URLError.Code) -> TransportError.Code {
        switch code {
        case .timedOut: .timedOut
        case .notConnectedToInternet: .notConnectedToInternet
        case .networkConnectionLost: .networkConnectionLost
        case .cannotConnectToHost, .cannotFindHost: .cannotConnectToHost
        case .cancelled: .cancelled
        case .badServerResponse: .badServerResponse
        default: .other
        }
    }
}
