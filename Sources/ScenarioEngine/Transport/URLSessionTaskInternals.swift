import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What FoundationNetworking keeps inside a task that a URLProtocol needs and no API shows: the
/// body of an upload task (`uploadTask(with:from:)`, `upload(for:from:)`), which never reaches
/// the request the protocol sees, and the task's session, whose configuration says where its
/// cookies go. Read by reflection, on Linux only; elsewhere both are `nil`.
enum URLSessionTaskInternals {
    /// The body an upload task was given apart from its request, read whole.
    static func uploadBody(of task: URLSessionTask?) -> Data? {
        #if canImport(FoundationNetworking)
            guard let task = task as? URLSessionUploadTask, let body = storedValue("knownBody", of: task).flatMap(unwrapped) else {
                return nil
            }
            // `_Body` is `.none`, `.data(DispatchData)`, `.file(URL)` or `.stream(InputStream)`.
            guard let payload = Mirror(reflecting: body).children.first?.value else { return nil }
            switch payload {
            case let data as DispatchData: return Data(data)
            case let file as URL: return try? Data(FileBytes.read(file.path))
            case let stream as InputStream: return HTTPRequest.read(stream)
            default: return nil
            }
        #else
            return nil
        #endif
    }

    /// The session the task belongs to.
    static func session(of task: URLSessionTask?) -> URLSession? {
        #if canImport(FoundationNetworking)
            guard let task else { return nil }
            return storedValue("session", of: task).flatMap(unwrapped) as? URLSession
        #else
            return nil
        #endif
    }

    /// The `httpAdditionalHeaders` of the task's session, which FoundationNetworking adds in its
    /// own HTTP loading alone; empty elsewhere (Apple's URLSession: not checked here).
    static func additionalHeaders(of task: URLSessionTask?) -> [(String, String)] {
        #if canImport(FoundationNetworking)
            guard let headers = session(of: task)?.configuration.httpAdditionalHeaders else { return [] }
            return headers.compactMap { key, value in (key as? String).map { ($0, "\(value)") } }
                .sorted { $0.0 < $1.0 }
        #else
            return []
        #endif
    }

    /// The stored property `label` of `object`, looked up through its superclasses.
    private static func storedValue(_ label: String, of object: AnyObject) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == label }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The value inside an optional, or `nil` for `.none`; any other value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
