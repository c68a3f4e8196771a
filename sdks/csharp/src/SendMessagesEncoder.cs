using System;

namespace Mintbench
{
    /// <summary>
    /// Builds SEND_MESSAGES frames (stream 1, topic 1, partition 0) into one reusable buffer: per
    /// message the payload, a fresh ID and an XXH3 checksum, then the batch checksum. This is the
    /// producer's hot path, so nothing is allocated per batch.
    /// </summary>
    public sealed class SendMessagesEncoder
    {
        const int MetadataLength = 22; // stream id 6 + topic id 6 + partitioning 6 + message count 4
        const int BodyPrefix = 4 + MetadataLength;
        const int BatchHeaderSize = 256;
        const int MessageHeaderSize = 48;
        const int BatchChecksumFieldsSize = 5 * 8 + 4; // five u64 fields, then message_count

        readonly byte[] client;
        readonly int bits, pack, payloadLength, messageFrameLength, maxMessages;
        readonly byte[] frame;
        readonly byte[] batchChecksumInput;

        public SendMessagesEncoder(byte[] client, int maxMessages, int bits, int pack)
        {
            this.client = client;
            this.maxMessages = maxMessages;
            this.bits = bits;
            this.pack = pack;
            payloadLength = Payload.Length(bits, pack);
            messageFrameLength = MessageHeaderSize + payloadLength;
            frame = new byte[checked(IggyFrames.HeaderSize + BodyPrefix + BatchHeaderSize + maxMessages * messageFrameLength)];
            batchChecksumInput = new byte[BatchChecksumFieldsSize + 8 * maxMessages];
            WriteFixedMetadata();
        }

        /// <summary>The buffer the last Encode wrote; its first Encode-returned bytes are the frame.</summary>
        public byte[] Frame { get { return frame; } }

        /// <summary>Encodes messages firstSeq .. firstSeq + count - 1; returns the frame length.</summary>
        public int Encode(ulong request, ulong session, ulong originTimestamp, ulong firstSeq, int count, IMessageIdMinter ids)
        {
            if (count < 1 || count > maxMessages)
                throw new ArgumentOutOfRangeException("count", count, "a batch holds 1.." + maxMessages + " messages");
            int messagesLength = count * messageFrameLength;
            int bodyLength = BodyPrefix + BatchHeaderSize + messagesLength;
            IggyFrames.WriteHeader(frame, bodyLength, client, null, request, IggyFrames.OperationSendMessages, session);

            int batchAt = IggyFrames.HeaderSize + BodyPrefix;
            LittleEndian.WriteUInt32(frame, batchAt - 4, (uint)count);
            LittleEndian.WriteUInt64(frame, batchAt + 24, originTimestamp);
            LittleEndian.WriteUInt64(frame, batchAt + 32, (ulong)(BatchHeaderSize + messagesLength));
            LittleEndian.WriteUInt32(frame, batchAt + 48, (uint)count);

            int at = batchAt + BatchHeaderSize;
            for (int i = 0; i < count; i++, at += messageFrameLength)
            {
                ids.MintInto(frame, at + 8);
                LittleEndian.WriteUInt32(frame, at + 24, (uint)i);         // offset_delta
                LittleEndian.WriteUInt32(frame, at + 28, 0);               // timestamp_delta
                LittleEndian.WriteUInt32(frame, at + 32, 0);               // user_headers_length
                LittleEndian.WriteUInt32(frame, at + 36, (uint)payloadLength);
                LittleEndian.WriteUInt64(frame, at + 40, 0);               // reserved
                Payload.Write(frame, at + MessageHeaderSize, firstSeq + (ulong)i, bits, pack);
                ulong checksum = Xxh3.Hash64(frame, at + 8, messageFrameLength - 8);
                LittleEndian.WriteUInt64(frame, at, checksum);
                LittleEndian.WriteUInt64(batchChecksumInput, BatchChecksumFieldsSize + 8 * i, checksum);
            }

            // partition_id, base_offset and base_timestamp stay 0 in both the header and the checksum input.
            LittleEndian.WriteUInt64(batchChecksumInput, 24, originTimestamp);
            LittleEndian.WriteUInt64(batchChecksumInput, 32, (ulong)(BatchHeaderSize + messagesLength));
            LittleEndian.WriteUInt32(batchChecksumInput, 40, (uint)count);
            ulong batchChecksum = Xxh3.Hash64(batchChecksumInput, 0, BatchChecksumFieldsSize + 8 * count);
            LittleEndian.WriteUInt64(frame, batchAt + 40, batchChecksum);
            return IggyFrames.HeaderSize + bodyLength;
        }

        void WriteFixedMetadata()
        {
            int at = IggyFrames.HeaderSize;
            LittleEndian.WriteUInt32(frame, at, MetadataLength);
            at = WriteNumericIdentifier(at + 4, 1); // stream
            at = WriteNumericIdentifier(at, 1);     // topic
            frame[at] = 2;                          // partitioning kind: partition id
            frame[at + 1] = 4;
            LittleEndian.WriteUInt32(frame, at + 2, 0);
        }

        int WriteNumericIdentifier(int at, uint value)
        {
            frame[at] = 1; // numeric
            frame[at + 1] = 4;
            LittleEndian.WriteUInt32(frame, at + 2, value);
            return at + 6;
        }
    }
}
