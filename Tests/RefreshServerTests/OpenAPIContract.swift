import Foundation

@testable import RefreshServer

/// `openapi.yaml` read as data: which routes and statuses exist and what each response body looks
/// like. Every response a test receives is checked against it, so a server that drifts from the
/// document fails the suite.
struct OpenAPIContract: Sendable {
    let document: YAMLBox

    final class YAMLBox: @unchecked Sendable {
        // Immutable after init; @unchecked because the indirect enum holds tuples.
        let root: YAML
        init(_ root: YAML) { self.root = root }
    }

    static let shared: OpenAPIContract = {
        do { return OpenAPIContract(document: YAMLBox(try YAML.parse(try OpenAPIDocument.text()))) } catch {
            fatalError("openapi.yaml does not parse: \(error)")
        }
    }()

    var root: YAML { document.root }

    /// (METHOD, path) of every documented operation.
    var operations: Set<String> {
        var out = Set<String>()
        for path in root["paths"]?.keys ?? [] {
            for method in root["paths"]?[path]?.keys ?? [] where ["get", "head", "put", "post", "delete", "patch"].contains(method) {
                out.insert("\(method.uppercased()) \(path)")
            }
        }
        return out
    }

    func statuses(method: String, path: String) -> [String] {
        root["paths"]?[path]?[method.lowercased()]?["responses"]?.keys ?? []
    }

    /// Problems with a response to `method path` (empty when it conforms).
    func check(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        guard let operation = root["paths"]?[path]?[method.lowercased()] else { return ["\(method) \(path) is not documented"] }
        guard var response = operation["responses"]?[String(status)] else {
            return ["\(method) \(path) answered \(status), which the document does not list"]
        }
        if let ref = response["$ref"]?.string { response = resolve(ref) ?? response }
        guard let content = response["content"] else { return body.isEmpty ? [] : ["\(status) response has a body but the document has no content"] }
        let mediaType = contentType?.split(separator: ";").first.map { String($0).trimmingSpaces } ?? ""
        guard let media = content[mediaType] else { return ["content type '\(mediaType)' is not documented for \(method) \(path) \(status)"] }
        guard let schema = media["schema"] else { return [] }
        if mediaType != "application/json" { return [] }
        guard let json = try? JSONValue.parse(Array(body)) else {
            return ["the \(status) body of \(method) \(path) is not JSON"]
        }
        var problems: [String] = []
        validate(json, schema, at: "$", &problems)
        return problems.map { "\(method) \(path) \(status): \($0)" }
    }

    func resolve(_ ref: String) -> YAML? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: YAML? = root
        for part in ref.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }

    func validate(_ value: JSONValue, _ schema: YAML, at path: String, _ problems: inout [String]) {
        if let ref = schema["$ref"]?.string {
            guard let target = resolve(ref) else {
                problems.append("\(path): unresolved \(ref)")
                return
            }
            return validate(value, target, at: path, &problems)
        }
        if let type = schema["type"] {
            let allowed = type.string.map { [$0] } ?? type.items.compactMap(\.string)
            guard allowed.contains(where: { Self.matches(value, type: $0) }) else {
                problems.append("\(path): \(value) is not \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let options = schema["enum"]?.items.compactMap(\.string), !options.isEmpty, let s = value.string, !options.contains(s) {
            problems.append("\(path): '\(s)' not in \(options)")
        }
        if let minimum = schema["minimum"]?.string.flatMap(Double.init), let d = value.double, d < minimum {
            problems.append("\(path): \(d) < minimum \(minimum)")
        }
        if let maximum = schema["maximum"]?.string.flatMap(Double.init), let d = value.double, d > maximum {
            problems.append("\(path): \(d) > maximum \(maximum)")
        }
        if let object = value.object {
            for key in schema["required"]?.items.compactMap(\.string) ?? [] where object[key] == nil {
                problems.append("\(path): missing required '\(key)'")
            }
            let properties = schema["properties"]
            for (key, child) in object {
                if let property = properties?[key] {
                    validate(child, property, at: "\(path).\(key)", &problems)
                } else if let extra = schema["additionalProperties"] {
                    if extra.string == "false" {
                        problems.append("\(path): undocumented key '\(key)'")
                    } else if case .map = extra {
                        validate(child, extra, at: "\(path).\(key)", &problems)
                    }
                }
            }
        }
        if let array = value.array, let items = schema["items"] {
            for (i, element) in array.enumerated() { validate(element, items, at: "\(path)[\(i)]", &problems) }
        }
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("string", .string), ("boolean", .bool), ("number", .number), ("object", .object), ("array", .array): true
        case ("integer", .number(_, let isInteger)): isInteger
        default: false
        }
    }
}
