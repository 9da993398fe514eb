package dev.loadprof.stores;

import java.util.List;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;

/**
 * Registers Beam's S3Options, so that --s3ClientFactoryClass and the other S3 options parse
 * from the command line: Beam's own registrar lists only AwsOptions.
 */
public final class StoreOptionsRegistrar implements PipelineOptionsRegistrar {
  @Override
  public Iterable<Class<? extends PipelineOptions>> getPipelineOptions() {
    return List.of(S3Options.class);
  }
}
