package dev.loadprof.stores;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.InterceptorContext;
import software.amazon.awssdk.core.internal.interceptor.DefaultFailedExecutionContext;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;

/**
 * A request to S3 that gets no answer is said to wait, once, names its store and object when it
 * fails, and gives the store up for the job; see StoreWaitIT for the whole job against a store
 * that never answers.
 */
class StoreWaitTest {
  private static final URI STORE = URI.create("http://127.0.0.1:9");

  @AfterEach
  void forget() {
    StoreWait.forgetAll();
  }

  private static InterceptorContext context(SdkRequest request) {
    return InterceptorContext.builder().request(request).build();
  }

  @Test
  void theLimitIsTwentySecondsATryUnlessSaidOtherwise() {
    assertEquals(Duration.ofSeconds(20), StoreWait.silence(null));
    assertEquals(Duration.ofSeconds(4), StoreWait.silence("4"));
    assertEquals(Duration.ofSeconds(20), StoreWait.silence("soon"));
    assertEquals(Duration.ofSeconds(1), StoreWait.silence("0"));
  }

  @Test
  void theObjectOfARequest() {
    assertEquals("s3://b/archive/runs/x.json", StoreWait.object(
        GetObjectRequest.builder().bucket("b").key("archive/runs/x.json").build()));
    assertEquals("s3://b/archive/index/", StoreWait.object(
        ListObjectsV2Request.builder().bucket("b").prefix("archive/index/").build()));
  }

  @Test
  void aRequestWithoutAnAnswerIsSaidToWaitOnceAcrossItsTries() {
    AtomicLong clock = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StoreWait wait = new StoreWait(STORE, clock::get, err);
    SdkRequest get = GetObjectRequest.builder().bucket("b").key("k").build();
    ExecutionAttributes attributes = new ExecutionAttributes();
    wait.beforeExecution(context(get), attributes);
    wait.beforeTransmission(context(get), attributes);
    clock.addAndGet(StoreWait.notice().toNanos() - 1);
    StoreWait.lookOnce(clock::get, err);
    assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    clock.addAndGet(1);
    StoreWait.lookOnce(clock::get, err);
    wait.beforeTransmission(context(get), attributes); // the next try
    clock.addAndGet(StoreWait.silence().toNanos());
    StoreWait.lookOnce(clock::get, err);
    String said = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, said.lines().count(), said);
    assertThat(said, containsString("loadprof: waiting for s3://b/k: the S3 store at " + STORE
        + " has not answered for 15 s (a try is given up after 20 s without an answer, 3 tries"
        + " in all)"));
    wait.afterExecution(context(get), attributes);
    clock.addAndGet(StoreWait.silence().toNanos());
    StoreWait.lookOnce(clock::get, err);
    assertEquals(said, bytes.toString(StandardCharsets.UTF_8), "answered: nothing more");
  }

  @Test
  void aRequestTheStoreDidNotAnswerNamesItAndTheStoreIsGivenUp() {
    StoreWait wait = new StoreWait(STORE);
    SdkRequest put = GetObjectRequest.builder().bucket("b").key("archive/x").build();
    ExecutionAttributes attributes = new ExecutionAttributes();
    SdkClientException timedOut = SdkClientException.create("Unable to execute HTTP request",
        new SocketTimeoutException("Read timed out"));
    Throwable said = wait.modifyException(DefaultFailedExecutionContext.builder()
        .interceptorContext(context(put)).exception(timedOut).build(), attributes);
    assertThat(said.getMessage(), containsString("s3://b/archive/x: the S3 store at " + STORE
        + " did not answer (3 tries, each given up after 20 s without an answer or on a broken"
        + " connection)"));
    assertNull(said.getCause(), "the job's line is the root cause's");
    assertThat(dev.loadprof.progress.StoreOutages.first(), containsString("s3://b/archive/x: the"
        + " S3 store at " + STORE + " did not answer"));
    StoreWait.StoreSilent next = assertThrows(StoreWait.StoreSilent.class,
        () -> wait.beforeExecution(context(put), new ExecutionAttributes()));
    assertThat(next.getMessage(), containsString("did not answer"));
    // Another failure is the store's own answer: as it is.
    SdkClientException denied = SdkClientException.create("Access Denied");
    assertSame(denied, new StoreWait(URI.create("http://elsewhere:1")).modifyException(
        DefaultFailedExecutionContext.builder().interceptorContext(context(put))
            .exception(denied).build(), attributes));
  }
}
