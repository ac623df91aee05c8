/* X-macro list of the built-in MediaPipe custom ops: TFF_MEDIAPIPE_OP(custom
 * name, registration function). No include guard: included once per use. */
TFF_MEDIAPIPE_OP("Convolution2DTransposeBias", tff_register_mp_transpose_conv_bias)
TFF_MEDIAPIPE_OP("MaxPoolingWithArgmax2D", tff_register_mp_max_pool_argmax)
TFF_MEDIAPIPE_OP("MaxUnpooling2D", tff_register_mp_max_unpooling)
TFF_MEDIAPIPE_OP("TransformLandmarks", tff_register_mp_transform_landmarks)
TFF_MEDIAPIPE_OP("TransformTensorBilinear", tff_register_mp_transform_tensor_bilinear)
