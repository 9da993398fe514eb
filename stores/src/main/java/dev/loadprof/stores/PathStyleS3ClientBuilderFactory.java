package dev.loadprof.stores;

import org.apache.beam.sdk.io.aws2.options.S3ClientBuilderFactory;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.aws2.s3.DefaultS3ClientBuilderFactory;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Beam's S3 client, with path-style addressing (http://HOST:PORT/BUCKET/KEY) whenever a custom
 * endpoint is set. S3-compatible servers (MinIO, Ceph, S3Mock, ...) on an IP address or a plain
 * host name cannot serve virtual-host addressing (BUCKET.HOST), which the SDK uses by default.
 * Every client also waits for the store within the stated limit of {@link StoreWait}.
 */
public final class PathStyleS3ClientBuilderFactory implements S3ClientBuilderFactory {
  @Override
  public S3ClientBuilder createBuilder(S3Options options) {
    S3ClientBuilder builder = new DefaultS3ClientBuilderFactory().createBuilder(options);
    if (options.getEndpoint() != null) {
      builder.forcePathStyle(true);
    }
    // A stated limit on waiting for the store (StoreWait), unless the user set the HTTP client.
    if (options.getHttpClientConfiguration() == null && options.getProxyConfiguration() == null) {
      builder.httpClientBuilder(ApacheHttpClient.builder()
          .connectionTimeout(StoreWait.connect()).socketTimeout(StoreWait.silence()));
    }
    // Beam sets no override configuration of its own for S3 (no retry option reaches it).
    builder.overrideConfiguration(c -> c
        .retryPolicy(RetryPolicy.builder().numRetries(StoreWait.TRIES - 1).build())
        .addExecutionInterceptor(new StoreWait(options.getEndpoint())));
    return builder;
  }
}
