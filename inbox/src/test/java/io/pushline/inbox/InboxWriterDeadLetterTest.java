package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.inbox.InboxOp;
import org.junit.jupiter.api.Test;

/** An inbox op the store throws on leaves a dead letter that names no person. */
class InboxWriterDeadLetterTest {
    @Test
    void theDeadLetterOfAnOpNamesItsMessageNotItsUid() {
        InboxOp op = new InboxOp();
        op.kind = InboxOp.ADD;
        op.uid = "u-13800138000";
        op.msgId = "m-7";
        op.title = "Hello Alice";
        op.body = "your order";
        DeadLetter d = InboxWriter.deadLetterOf(op, new IllegalStateException("boom"), 1);
        assertThat(d.position).isEqualTo("add m-7").doesNotContain("13800138000");
        assertThat(d.raw).contains("m-7").doesNotContain("13800138000").doesNotContain("Alice");
        assertThat(d.reason).contains("IllegalStateException");
    }
}
