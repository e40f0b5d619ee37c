import Geo
import LocationStore
import NIOCore
import NIOSSL
import PostgresNIO

extension PostgresURL {
    /// PostgresNIO's configuration for this URL.
    package func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case .disable:
            tls = .disable
        case .allow, .prefer, .require:
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateVerification = .none
            let context = try NIOSSLContext(configuration: client)
            tls = sslMode == .require ? .require(context) : .prefer(context)
        case .verifyCA, .verifyFull:
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateVerification = sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
            tls = .require(try NIOSSLContext(configuration: client))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password,
            database: database, tls: tls)
        configuration.options.connectTimeout = .init(connectTimeout)
        return configuration
    }
}
