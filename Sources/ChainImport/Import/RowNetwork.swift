import LocationStore

extension NetworkResolver {
    /// The network a row belongs to, the same for every store: its network column's value resolved (creating the
    /// network on first sight unless only known ones are allowed), else the import's fixed network (`--network`), which
    /// is the fallback for rows whose column is empty. Nil when the row is rejected (logged in `ledger`).
    package func network(of row: ParsedRow, fallback: String?, mapping: ColumnMapping?, ledger: inout FileLedger) throws -> String? {
        let wikidata = row.brandWikidata.flatMap { q in catalogue?.brand(wikidata: q).map { _ in q } }
        guard let value = row.network ?? wikidata else {
            if let fallback { return fallback }
            ledger.reject(
                row.line, .missingNetwork,
                "the \(mapping?.described["network"] ?? "network") column is empty "
                    + "(--network NETWORK gives such rows a network)")
            return nil
        }
        let networkId: String
        let country = CountryCode.iso2(row.country) ?? (row.region.flatMap(USRegions.region) != nil ? "us" : nil)
        switch try resolve(value, displayName: row.networkName, country: country, wikidata: wikidata) {
        case .success(let id): networkId = id
        case .failure(.missing):
            ledger.reject(row.line, .missingNetwork, "network value '\(value.clipped())' has no letters or digits")
            return nil
        case .failure(.unknown(let v)):
            ledger.reject(row.line, .unknownNetwork, "'\(v.clipped())' is neither a network nor an alias")
            return nil
        case .failure(.idTooLong(let slug)):
            ledger.reject(
                row.line, .fieldTooLong,
                "network value '\(value.clipped(40))' would make a network id of "
                    + "\(slug.unicodeScalars.count) characters, more than the \(FieldLimits.networkId) the store keeps")
            return nil
        case .failure(.confusable(let why)):
            ledger.reject(row.line, .confusableNetwork, why)
            return nil
        }
        if row.namesNetwork, let displayName = row.networkName { try rename(networkId, to: displayName) }
        return networkId
    }

    /// The import's fixed network (`--network`, a mapping file's `network`) as an id: an id, an alias, or a new
    /// network named after it.
    package func fixedNetwork(_ value: String) throws -> String {
        switch try resolve(value, displayName: value) {
        case .success(let id): return id
        case .failure(.idTooLong(let slug)):
            throw ImportError.invalidOption(
                "the network '\(value.clipped(40))' would get an id of \(slug.unicodeScalars.count) "
                    + "characters, more than the \(FieldLimits.networkId) the store keeps")
        case .failure(.confusable(let why)): throw ImportError.invalidOption("the network \(why)")
        case .failure: throw ImportError.invalidOption("unknown network '\(value.clipped())' (create it with `oncue networks set`)")
        }
    }
}
