import Foundation
import LocationStore

extension ImportOptionTable {
    /// A message of the importer, which names its options as the command line spells them (`--network ID`,
    /// `--fix-coordinates`), reworded for `POST /admin/imports`, whose options are query parameters (`'network=ID'`,
    /// `'fix_coordinates=true'`): each surface gives its own advice. Text that names no option is returned as it is.
    package static func requestWording(_ message: String) -> String {
        guard message.contains("--") else { return message }
        // The command line's geocoder is a URL of the admin's choosing; a request picks one of the server's by name.
        var text = message.replacingOccurrences(
            of: "--geocoder URL (or ONCUE_GEOCODER)", with: "'geocode=missing' (and 'geocoder=NAME' for one of the server's geocoders)")
        let pattern = /--([a-z][a-z0-9-]*)(?: ([A-Z][A-Z_]*|'[^']*'|[a-z0-9][a-z0-9.-]*))?/
        text = text.replacing(pattern) { match in
            let name = match.output.1.replacingOccurrences(of: "-", with: "_")
            guard let spec = option(named: name) else { return String(match.output.0) }
            let value = match.output.2.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            if case .flag = spec.kind { return "'\(name)=true'" + (value.map { " \($0)" } ?? "") }
            return "'\(name)=\(value ?? "…")'"
        }
        return text
    }
}

extension ImportReport {
    /// The report with every issue's message reworded by `wording` (a request's report names query parameters).
    package func reworded(_ wording: (String) -> String) -> ImportReport {
        var report = self
        for f in report.files.indices {
            for i in report.files[f].issues.indices { report.files[f].issues[i].message = wording(report.files[f].issues[i].message) }
        }
        return report
    }
}
