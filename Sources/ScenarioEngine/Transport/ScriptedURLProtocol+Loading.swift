import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One load's answer goes to URLSession at most once: either the backend's answer, or nothing
/// because URLSession stopped the load first. Whichever comes first runs the bookkeeping.
final class HandOff: @unchecked Sendable {
    private let lock = NSLock()
    private var bookkeeping: (() -> Void)?
    private var taken = false
    private var number = 0

    func arm(_ bookkeeping: @escaping () -> Void) { lock.withLock { self.bookkeeping = bookkeeping } }

    /// Returns whether the caller is first; the first runs the bookkeeping.
    func take() -> Bool {
        let (first, work) = lock.withLock { () -> (Bool, (() -> Void)?) in
            guard !taken else { return (false, nil) }
            taken = true
            defer { bookkeeping = nil }
            return (true, bookkeeping)
        }
        work?()
        return first
    }

    /// The backend's number of the request being answered: the load's, or the last one a
    /// redirect led to.
    var requestNumber: Int { lock.withLock { number } }

    func answering(_ number: Int) { lock.withLock { self.number = number } }
}

/// Where a session keeps the cookies its answers set: FoundationNetworking stores `Set-Cookie`
/// only in its own HTTP loading, so answers served here store theirs as it would (unless the
/// configuration's accept policy is `never`), and the session sends them on as usual. Cookies
/// put in the shared storage (`URLSession.shared`'s) are taken out when the run ends.
struct CookieJar: Sendable {
    let storage: HTTPCookieStorage
    let sendsCookies: Bool
    let mainDocumentURL: URL?
    let backend: ScriptedBackend

    init?(session: URLSession?, request: URLRequest, backend: ScriptedBackend) {
        guard let configuration = session?.configuration, configuration.httpCookieAcceptPolicy != .never,
            let storage = configuration.httpCookieStorage
        else { return nil }
        self.storage = storage
        sendsCookies = configuration.httpShouldSetCookies && request.httpShouldHandleCookies
        mainDocumentURL = request.mainDocumentURL
        self.backend = backend
    }

    func keep(_ response: HTTPResponse, from url: URL) {
        // One header at a time: joined with ", " they would split inside an `Expires` date.
        let cookies = response.headers.values(for: "Set-Cookie").flatMap {
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url)
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: mainDocumentURL)
        if storage === HTTPCookieStorage.shared {
            backend.whenRunEnds { for cookie in cookies { HTTPCookieStorage.shared.deleteCookie(cookie) } }
        }
    }

    /// The `Cookie` header URLSession would add to a request for `url`.
    func header(for url: URL) -> String? {
        guard sendsCookies, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }
}

extension ScriptedURLProtocol {
    /// How many redirects one load follows, as URLSession's own HTTP loading.
    static let redirectLimit = 20

    /// The request URLSession's HTTP loading sends next for a redirect answer (RFC 9110 15.4:
    /// 303, and 301 or 302 to a POST, turn into a GET without a body), or `nil` when the answer
    /// is not one. Only on Linux: FoundationNetworking follows redirects in its own HTTP loading
    /// alone (a protocol's `wasRedirectedTo` stops the process), so here they are followed as it
    /// would. Apple's URLSession is handed the redirect answer as it is (not checked here).
    static func redirect(_ response: HTTPResponse, from request: URLRequest) -> URLRequest? {
        #if canImport(FoundationNetworking)
            let code = response.status.code
            guard [301, 302, 303, 307, 308].contains(code), let location = response.headers["Location"], let base = request.url,
                let target = URL(string: location, relativeTo: base)?.absoluteURL
            else { return nil }
            var next = request
            next.url = target
            if code == 303 && request.httpMethod != "HEAD" || (code == 301 || code == 302) && request.httpMethod == "POST" {
                next.httpMethod = "GET"
                next.httpBody = nil
                next.setValue(nil, forHTTPHeaderField: "Content-Type")
                next.setValue(nil, forHTTPHeaderField: "Content-Length")
            }
            return next
        #else
            return nil
        #endif
    }

    /// Asks the task's delegate (its session's, when it has none of its own) whether to follow,
    /// on the session's delegate queue, as URLSession does; without a delegate it follows.
    /// `decision` gets the request to send next, or `nil` to hand the redirect answer on.
    static func decide(
        _ response: HTTPURLResponse, next: URLRequest, task: URLSessionTask?, session: URLSession?,
        _ decision: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // (Apple's delegate method is optional, and redirects are followed here on Linux only.)
        #if canImport(FoundationNetworking)
            guard let task, let session, let delegate = task.delegate else {
                return decision(next)
            }
            session.delegateQueue.addOperation {
                delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: next) { decision($0) }
            }
        #else
            decision(next)
        #endif
    }
}
