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
        guard let url = request.url else { throw URLError(.badURL) }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var headers = HTTPFields()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append(name: name, value: value)
        }
        let outgoing = HTTPRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            path: components?.path ?? url.path,
            query: (components?.queryItems ?? []).map { .init(name: $0.name, value: $0.value) },
            headers: headers,
            body: request.httpBody)
        let answer: HTTPResponse
        do {
            answer = try await transport.send(outgoing)
        } catch {
            throw URLError(.networkConnectionLost)
        }
        var fields: [String: String] = [:]
        for field in answer.headers {
            // URLSession joins repeated names with ", "; do the same so both routes look alike.
            fields[field.name] = fields[field.name].map { "\($0), \(field.value)" } ?? field.value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: answer.status.code, httpVersion: "HTTP/1.1", headerFields: fields) else {
            throw URLError(.badServerResponse)
        }
        return (answer.body, response)
    }
}
