/* X-macro list of the built-in MediaPipe custom ops: TFF_MEDIAPIPE_OP(custom
 * name, op version or 0 for any, registration function), as MediaPipe's
 * kernels are named and versioned. No include guard: included once per use. */
TFF_MEDIAPIPE_OP("Convolution2DTransposeBias", 0, tff_register_mp_transpose_conv_bias)
TFF_MEDIAPIPE_OP("Landmarks2TransformMatrix", 1, tff_register_mp_landmarks_to_transform_matrix_v1)
TFF_MEDIAPIPE_OP("Landmarks2TransformMatrix", 2, tff_register_mp_landmarks_to_transform_matrix)
TFF_MEDIAPIPE_OP("MaxPoolingWithArgmax2D", 0, tff_register_mp_max_pool_argmax)
TFF_MEDIAPIPE_OP("MaxUnpooling2D", 0, tff_register_mp_max_unpooling)
TFF_MEDIAPIPE_OP("TransformLandmarks", 1, tff_register_mp_transform_landmarks_v1)
TFF_MEDIAPIPE_OP("TransformLandmarks", 2, tff_register_mp_transform_landmarks)
TFF_MEDIAPIPE_OP("TransformTensor", 1, tff_register_mp_transform_tensor_v1)
TFF_MEDIAPIPE_OP("TransformTensorBilinear", 2, tff_register_mp_transform_tensor_bilinear)
